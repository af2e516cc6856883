import type { GlossaryTerm } from './markup.js';

/** The glossary terms of a language pair: entries that have both languages (longest source first). */
export function termsForPair(entries: ReadonlyArray<{ translations: Record<string, string> }>, source: string, target: string): GlossaryTerm[] {
  const terms: GlossaryTerm[] = [];
  for (const e of entries) {
    const s = e.translations[source]?.trim();
    const t = e.translations[target]?.trim();
    if (s && t) terms.push({ source: s, target: t });
  }
  return terms.sort((a, b) => b.source.length - a.source.length || a.source.localeCompare(b.source));
}
