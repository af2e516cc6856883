/**
 * Inline content ⇄ the markup an engine translates: text with its marks and links as numbered placeholders,
 * `<xN>…</xN>` around what the engine translates inside (emphasis, strong, strikethrough, links) and `<xN/>` for
 * what it never sees (inline code, math, images, HTML, URLs written as links, glossary terms). Text is escaped as in
 * HTML, so every engine that keeps tags (Apertium's HTML mode, DeepL's XML tags, LibreTranslate's HTML format,
 * a chat model told so) gives the placeholders back; what they hold is put back from the source.
 */
import type { PhrasingContent } from 'mdast';

/** What a placeholder stands for: a node kept whole (void), a node whose children are translated (pair), a glossary term. */
export type Placeholder =
  { kind: 'void'; node: PhrasingContent } | { kind: 'pair'; node: PhrasingContent & { children: PhrasingContent[] } } | { kind: 'term'; target: string };

/** A glossary term: its source form (matched case-insensitively on word boundaries) and its target form. */
export interface GlossaryTerm {
  source: string;
  target: string;
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function unescapeText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (all, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? all;
  });
}

const PAIRED = new Set(['emphasis', 'strong', 'delete', 'link', 'linkReference']);

function isUrlLink(node: PhrasingContent): boolean {
  if (node.type !== 'link') return false;
  const only = node.children.length === 1 ? node.children[0] : undefined;
  if (!only || only.type !== 'text') return node.children.length === 0;
  const text = only.value.trim();
  return text === node.url || `mailto:${text}` === node.url || /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(text) || /^www\.\S+$/.test(text);
}

function termPattern(terms: readonly GlossaryTerm[]): RegExp | null {
  const usable = terms.filter((t) => t.source.trim() !== '').sort((a, b) => b.source.length - a.source.length);
  if (usable.length === 0) return null;
  const alternatives = usable.map((t) => t.source.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

/** Builds the markup of inline content, numbering placeholders from 1. */
export class MarkupWriter {
  readonly placeholders = new Map<number, Placeholder>();
  /** Glossary terms found (source forms as written in the glossary). */
  readonly termsFound = new Set<string>();
  private next = 1;
  private readonly pattern: RegExp | null;
  private readonly bySource: Map<string, GlossaryTerm>;

  constructor(terms: readonly GlossaryTerm[]) {
    this.pattern = termPattern(terms);
    this.bySource = new Map(terms.map((t) => [t.source.trim().toLowerCase(), t]));
  }

  text(value: string): string {
    if (!this.pattern) return escapeText(value);
    let out = '';
    let last = 0;
    for (const m of value.matchAll(this.pattern)) {
      const term = this.bySource.get(m[0].toLowerCase());
      if (!term) continue;
      out += escapeText(value.slice(last, m.index));
      const n = this.next++;
      this.placeholders.set(n, { kind: 'term', target: term.target });
      this.termsFound.add(`${term.source}\u0000${term.target}`);
      out += `<x${n}/>`;
      last = m.index + m[0].length;
    }
    return out + escapeText(value.slice(last));
  }

  phrasing(children: readonly PhrasingContent[]): string {
    let out = '';
    for (const node of children) {
      if (node.type === 'text') out += this.text(node.value);
      else if (PAIRED.has(node.type) && !isUrlLink(node)) {
        const n = this.next++;
        this.placeholders.set(n, { kind: 'pair', node: node as PhrasingContent & { children: PhrasingContent[] } });
        out += `<x${n}>${this.phrasing((node as { children: PhrasingContent[] }).children)}</x${n}>`;
      } else {
        const n = this.next++;
        this.placeholders.set(n, { kind: 'void', node });
        out += `<x${n}/>`;
      }
    }
    return out;
  }
}

type Token = { t: 'text'; value: string } | { t: 'open' | 'close' | 'void'; n: number };

function tokenize(markup: string): Token[] {
  const tokens: Token[] = [];
  const re = /<(\/?)x(\d+)\s*(\/?)>/g;
  let last = 0;
  for (const m of markup.matchAll(re)) {
    if (m.index > last) tokens.push({ t: 'text', value: markup.slice(last, m.index) });
    const n = Number(m[2]);
    tokens.push({ t: m[1] ? 'close' : m[3] ? 'void' : 'open', n });
    last = m.index + m[0].length;
  }
  if (last < markup.length) tokens.push({ t: 'text', value: markup.slice(last) });
  return tokens;
}

/** The plain text of a markup (placeholders dropped, entities decoded): what words are counted on. */
export function plainText(markup: string): string {
  return unescapeText(markup.replace(/<\/?x\d+\s*\/?>/g, ' '));
}

/**
 * The inline nodes of a translated markup, or null when its placeholders do not match the source's (one missing,
 * repeated, unknown, or badly nested): the caller then keeps the source content and reports it.
 */
export function readMarkup(markup: string, placeholders: ReadonlyMap<number, Placeholder>): PhrasingContent[] | null {
  const tokens = tokenize(markup);
  const seen = new Set<number>();
  let i = 0;
  const build = (closing: number | null): PhrasingContent[] | null => {
    const out: PhrasingContent[] = [];
    while (i < tokens.length) {
      const tok = tokens[i++]!;
      if (tok.t === 'text') {
        if (/[<>]/.test(tok.value)) return null;
        const value = unescapeText(tok.value);
        const prev = out[out.length - 1];
        if (prev?.type === 'text') prev.value += value;
        else if (value !== '') out.push({ type: 'text', value });
        continue;
      }
      if (tok.t === 'close') return tok.n === closing ? out : null;
      const p = placeholders.get(tok.n);
      if (!p || seen.has(tok.n)) return null;
      seen.add(tok.n);
      if (tok.t === 'void') {
        if (p.kind === 'pair') return null;
        // The source node itself (each placeholder is used once): later units (an image's alt text) still reach it.
        const node: PhrasingContent = p.kind === 'term' ? { type: 'text', value: p.target } : p.node;
        const prev = out[out.length - 1];
        if (node.type === 'text' && prev?.type === 'text') prev.value += node.value;
        else out.push(node);
        continue;
      }
      if (p.kind !== 'pair') return null;
      const inner = build(tok.n);
      if (!inner) return null;
      const { children: _children, ...rest } = p.node;
      out.push({ ...structuredClone(rest), children: inner } as PhrasingContent);
    }
    return closing === null ? out : null;
  };
  const nodes = build(null);
  if (!nodes || seen.size !== placeholders.size) return null;
  return nodes;
}
