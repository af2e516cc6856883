/**
 * Language pairs of Apertium: the modes installed in `/usr/share/apertium/modes` (`eng-spa.mode`, `en-gl.mode`),
 * and the mapping of the API's language codes (ISO 639-1, `pt-br`) to Apertium's (ISO 639-3, `por_BR`).
 */
import { readdir } from 'node:fs/promises';

export const APERTIUM_MODES_DIR = '/usr/share/apertium/modes';

const ISO3: Record<string, string[]> = {
  en: ['eng', 'en'],
  es: ['spa', 'es'],
  fr: ['fra', 'fr'],
  de: ['deu', 'de'],
  it: ['ita', 'it'],
  pt: ['por', 'pt'],
  'pt-br': ['por_BR', 'pt_BR', 'por', 'pt'],
  ru: ['rus', 'ru'],
  ca: ['cat', 'ca'],
  gl: ['glg', 'gl'],
  nl: ['nld', 'nl'],
  pl: ['pol', 'pl'],
  sv: ['swe', 'sv'],
  no: ['nob', 'nno', 'no'],
  da: ['dan', 'da'],
  ro: ['ron', 'ro'],
  uk: ['ukr', 'uk'],
  cs: ['ces', 'cs'],
  sk: ['slk', 'sk'],
  bg: ['bul', 'bg'],
  hr: ['hbs_HR', 'hrv', 'hr'],
  sl: ['slv', 'sl'],
  el: ['ell', 'el'],
  tr: ['tur', 'tr'],
  ar: ['ara', 'ar'],
  hi: ['hin', 'hi'],
  id: ['ind', 'id'],
  ms: ['msa', 'zlm', 'ms'],
  he: ['heb', 'he'],
  fi: ['fin', 'fi'],
  hu: ['hun', 'hu'],
  lt: ['lit', 'lt'],
  lv: ['lav', 'lv'],
  et: ['est', 'et'],
};

/** The Apertium codes tried for an API language code, most specific first. */
export function apertiumCodes(language: string): string[] {
  return ISO3[language.toLowerCase()] ?? [language];
}

/** Installed modes (`eng-spa`, …), sorted; none when the directory is missing. */
export async function installedModes(dir = APERTIUM_MODES_DIR): Promise<string[]> {
  try {
    return (await readdir(dir))
      .filter((f) => f.endsWith('.mode'))
      .map((f) => f.slice(0, -'.mode'.length))
      .sort();
  } catch {
    return [];
  }
}

/** The installed mode translating `source` into `target`, or undefined. */
export function findMode(modes: readonly string[], source: string, target: string): string | undefined {
  const have = new Set(modes);
  for (const s of apertiumCodes(source)) for (const t of apertiumCodes(target)) if (have.has(`${s}-${t}`)) return `${s}-${t}`;
  return undefined;
}
