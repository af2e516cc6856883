import type { Root, Nodes, Text } from 'mdast';
import type { Style } from '../types.js';
import { insideInlineHtml } from '../serialize/html-context.js';

/**
 * Characters whose literal occurrences GitBook's exporter writes escaped (`\*`, `\_`, `` \` ``, `\[`)
 * except where they were its own marks: its 2018–21 exporter wrote emphasis and code marks without
 * CommonMark's flanking checks (`apply to_positions_,`, `v_something … v_ 開頭`, `**Release date: **2021`,
 * an empty code mark as ` `` `), and a code mark across a whitespace-only line leaves its text
 * (`id_in: [String]`) outside any code span. A CommonMark parse reads those marks as literal text,
 * while the literal characters of GitBook's text stay escaped (`pg\_hba`, `X\*@Y`, `_\*\*_`). Which
 * literal characters were written plain cannot be derived from the tree, so it is recorded here, and
 * serialize/plain-delimiters.ts writes them plain again where that re-parses the same.
 */
export const DELIMITERS = /[*_`[]/g;

export interface PlainDelimitersData {
  /** Ordinals, among the `*`, `_`, `` ` `` and `[` characters of the text's value, of those written unescaped. */
  plainDelimiters?: number[];
}

/**
 * Record, on each text node whose source writes some of its `*`/`_`/`` ` ``/`[` characters unescaped, which
 * ones (by ordinal). Nodes whose source and value do not line up one to one (a character written as a
 * character reference) record nothing and are written with the exporter's default escapes.
 */
export function recordPlainDelimiters(text: string, tree: Root, style: Style): void {
  const alnum = /[\p{L}\p{N}]/u;
  const walk = (node: Nodes, parent: Nodes | null): void => {
    if (node.type === 'text') {
      record(node, parent);
      return;
    }
    if ('children' in node) for (const c of node.children as Nodes[]) walk(c, node);
  };
  const record = (node: Text, parent: Nodes | null): void => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined || !/[*_`[]/.test(node.value)) return;
    // Text inside inline HTML is written raw or as HTML content, never with these escapes.
    if (parent && insideInlineHtml(parent, node)) return;
    const plain = sourceDelimiters(text.slice(start, end));
    if (plain === null || plain.length !== (node.value.match(DELIMITERS)?.length ?? 0)) return;
    // An underscore between letters or digits is written plain anyway where the file does not escape those.
    const at: number[] = [];
    let k = 0;
    for (const m of node.value.matchAll(DELIMITERS)) {
      const i = m.index;
      const boundary = m[0] === '_' && style.escapeUnderscore === 'boundary' && alnum.test(node.value[i - 1] ?? '') && alnum.test(node.value[i + 1] ?? '');
      if (plain[k] && !boundary) at.push(k);
      k++;
    }
    if (at.length > 0) ((node.data ??= {}) as PlainDelimitersData).plainDelimiters = at;
  };
  walk(tree, null);
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/** For each `*`/`_`/`` ` ``/`[` of a text's source, in order: written plain (true) or backslash-escaped (false). */
function sourceDelimiters(src: string): boolean[] | null {
  const out: boolean[] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\' && ASCII_PUNCTUATION.test(src[i + 1] ?? '')) {
      if (/[*_`[]/.test(src[i + 1]!)) out.push(false);
      i++;
    } else if (c === '*' || c === '_' || c === '`' || c === '[') out.push(true);
  }
  return out;
}
