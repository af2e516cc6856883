import type { Root, Nodes, Text } from 'mdast';
import type { State } from 'mdast-util-to-markdown';
import type { Style } from '../types.js';
import { insideInlineHtml } from '../serialize/html-context.js';
import { gitbookSpellingAllowed } from '../serialize/plain-delimiters.js';

/**
 * GitBook's exporters escape more punctuation than CommonMark needs, and not the same by era or by
 * context: the 2020 exporter passed a page's own escapes through (`\\d{2}\\.\\d{3}` beside a plain `\\d`,
 * `* \\/` in a list of operators, `sum\\_i` in a page writing `step_size` plain, `\\\\d` in a table);
 * the current one escapes an intra-word `_` next to an escaped `*` (`file\\_type\\*`) in a page writing
 * `page_size` plain. A parser reads each escape as the character alone, so which characters were
 * written escaped cannot be derived from the tree. It is recorded here: the indices, in a text's value,
 * of the ASCII punctuation its source wrote backslash-escaped, and a hash of the value; the text handler
 * adds the backslash back where its default wrote the character plain (an escaped ASCII punctuation
 * character always re-parses as that character).
 *
 * The reverse, for the characters a serializer escapes to keep a construct from forming: a `(` after `]`
 * (`110\](http://…` where GitBook wrote a broken link's destination) and `{`/`}` beside `{`, `}` or `%`
 * (`{}{.URL}}`, no Liquid output tag), and a `]` in a page that escapes `]` (`%29]%20`), written plain are recorded as `plainAt`, and written plain again in
 * a verified container (where that re-parses the same; else escaped).
 */
export interface EscapedPunctuationData {
  escapedAt?: number[];
  plainAt?: number[];
  /** Spaces the source wrote `&#x20;` where the serializer writes them plain (`**The****&#x20;****\`ffuf\`**`, between delimiter runs). */
  spaceRefAt?: number[];
  /** FNV-1a hash of the value the indices were recorded for: an edited text is written with the default escapes. */
  escapedOf?: number;
}

function hash(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const REFERENCE = /^&(?:#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/;

/**
 * Whether the escape of `value[j]` is one no serializer default writes, so that the record stays the same
 * when a serialization is parsed again: punctuation CommonMark never needs escaped mid-line (`.` after
 * anything but a line's leading digits, `/`, `:`, `=` or `+`/`-` not starting a line…), `(`, `)`, `]` and
 * `#` mid-line in a page whose style writes them plain, an intra-word `_` in a page writing those plain,
 * and a backslash before a character that is not punctuation (`\\d`).
 */
function recordable(value: string, j: number, style: Style, parent: Nodes | null): boolean {
  const c = value[j]!;
  const before = value.slice(value.lastIndexOf('\n', j - 1) + 1, j);
  // Characters the page's style writes plain in prose, where no construct needs them escaped.
  if (c === '(') return !style.escapeParens && value[j - 1] !== ']';
  if (c === ')') return !style.escapeParens && !/^[ \t]*\d+$/.test(before);
  if (c === ']') return !style.escapeClosingBracket && parent?.type !== 'link' && parent?.type !== 'linkReference';
  if (c === '#') return !style.escapeHash && parent?.type !== 'heading' && !/^[ \t]*$/.test(before);
  if (c === '\\') return !PUNCTUATION.test(value[j + 1] ?? '');
  if (c === '_') return style.escapeUnderscore === 'boundary' && /[\p{L}\p{N}]/u.test(value[j - 1] ?? '') && /[\p{L}\p{N}]/u.test(value[j + 1] ?? '');
  if (c === '.') return !/^[ \t]*\d*$/.test(before);
  if (c === '=' || c === '+' || c === '-') return (j > 0 && !/^[ \t]*$/.test(before)) || lineStartSign(c, value[j + 1]);
  return /[/:;,?@$%^'"]/.test(c);
}

/**
 * A `-` or `+` starting a line where the serializer writes it plain (`-` before anything but whitespace, a digit,
 * `>` or `-`; `+` before anything but whitespace): GitBook's exporter escapes it there (`\\-K, --ask-become-pass`,
 * `\\-İşlemler`, `\\+301`), pages written plain stay plain (`-Dumb-easy`). No default writes that escape, so the
 * record is the same on a second parse.
 */
function lineStartSign(c: string, next: string | undefined): boolean {
  if (next === undefined || /\s/.test(next)) return false;
  return c === '+' || (c === '-' && !/[\d>-]/.test(next));
}

export function recordEscapedPunctuation(text: string, tree: Root, style: Style): void {
  const walk = (node: Nodes, parent: Nodes | null): void => {
    if (node.type === 'text') {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start === undefined || end === undefined || (parent && insideInlineHtml(parent, node))) return;
      const src = text.slice(start, end);
      if (!src.includes('\\') && !AT_RISK.test(src) && !(style.escapeClosingBracket && src.includes(']')) && !src.includes(SPACE_REF)) return;
      const found = sourceIndices(src, node.value, style, parent);
      if (!found || found.escaped.length + found.plain.length + found.spaceRef.length === 0) return;
      const data = (node.data ??= {}) as EscapedPunctuationData;
      if (found.escaped.length > 0) data.escapedAt = found.escaped;
      if (found.plain.length > 0) data.plainAt = found.plain;
      if (found.spaceRef.length > 0) data.spaceRefAt = found.spaceRef;
      data.escapedOf = hash(node.value);
      return;
    }
    if ('children' in node) for (const c of node.children as Nodes[]) walk(c, node);
  };
  walk(tree, null);
}

const SPACE_REF = '&#x20;';
const NAN = '&#xNAN;';
const AT_RISK = /\]\(|\{[{%]|%\}|\}\}|&#xNAN;|(?:^|\n)[ \t]*\d{1,9}[.)]/;

/**
 * Whether `value[j]` is one the serializer escapes to keep a construct from forming (`(` after `]`, `{`
 * before `{` or `%`, `}` after `%` or before `}`) or because the page's style escapes it in prose (`]`
 * outside link text where the page escapes `]`).
 */
function atRisk(value: string, j: number, style: Style, parent: Nodes | null): boolean {
  const [prev, c, next] = [value[j - 1], value[j], value[j + 1]];
  if (c === ']') return style.escapeClosingBracket && parent?.type !== 'link' && parent?.type !== 'linkReference';
  // GitBook's `&#xNAN;` before an emphasis (serialize/nan-reference.ts) is written by its attention encoder, not its text escaper.
  if (c === '&') return value.startsWith(NAN, j);
  // A number starting a line written plain (`2. Si el ping…` after a hard break): no list, as only `1.` may interrupt a paragraph.
  if (c === '.' || c === ')') return /^[ \t]*\d{1,9}$/.test(value.slice(value.lastIndexOf('\n', j - 1) + 1, j));
  return (c === '(' && prev === ']') || (c === '{' && (next === '{' || next === '%')) || (c === '}' && (prev === '%' || next === '}'));
}

/**
 * Indices of `value` written `\\X` in `src`, and of the at-risk characters written plain, or null when
 * source and value do not line up one to one (a character reference, a line prefix that is not only
 * indentation or `>`).
 */
function sourceIndices(src: string, value: string, style: Style, parent: Nodes | null): { escaped: number[]; plain: number[]; spaceRef: number[] } | null {
  const at: number[] = [];
  const plain: number[] = [];
  const spaceRef: number[] = [];
  let j = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '&' && value[j] === ' ' && src.startsWith(SPACE_REF, i)) {
      spaceRef.push(j++);
      i += SPACE_REF.length - 1;
    } else if (c === '\\' && PUNCTUATION.test(src[i + 1] ?? '')) {
      if (value[j] !== src[i + 1]) return null;
      if (recordable(value, j, style, parent)) at.push(j);
      j++;
      i++;
    } else if (c === value[j]) {
      if (c === '&' && REFERENCE.test(src.slice(i, i + 40))) return null;
      if (atRisk(value, j, style, parent)) plain.push(j);
      j++;
      // Continuation lines: their container prefix and indentation are not in the value.
      if (c === '\n') while (i + 1 < src.length && /[ \t>]/.test(src[i + 1]!) && src[i + 1] !== value[j]) i++;
    } else if ((c === ' ' || c === '\t') && /^[ \t]*\r?\n/.test(src.slice(i))) continue;
    else return null;
  }
  return j === value.length ? { escaped: at, plain, spaceRef } : null;
}

/**
 * `out`, a text's serialization, with a backslash before each recorded escaped character it writes plain,
 * and none before each recorded plain one it escapes (where the verified container allows it); unchanged
 * when the text was edited.
 */
export function writeEscapedPunctuation(out: string, node: Text, state: State): string {
  const data = node.data as EscapedPunctuationData | undefined;
  if (!(data?.escapedAt?.length || data?.plainAt?.length || data?.spaceRefAt?.length) || data.escapedOf !== hash(node.value)) return out;
  const value = node.value;
  const want = new Set(data.escapedAt);
  const plain = new Set(data.plainAt);
  const spaceRef = new Set(data.spaceRefAt);
  let res = '';
  let j = 0;
  for (let i = 0; i < out.length; i++) {
    const c = out[i]!;
    if (c === '\\' && PUNCTUATION.test(out[i + 1] ?? '') && value[j] === out[i + 1]) {
      res += plain.has(j) && gitbookSpellingAllowed(state) ? out[i + 1]! : c + out[i + 1]!;
      i++;
      j++;
      continue;
    }
    const ref = c === '&' && value[j] !== '&' ? REFERENCE.exec(out.slice(i, i + 40)) : null;
    if (ref) {
      res += ref[0];
      i += ref[0].length - 1;
      j++;
      continue;
    }
    if (c !== value[j]) return out;
    res += want.has(j) && PUNCTUATION.test(c) ? '\\' + c : c === ' ' && spaceRef.has(j) ? SPACE_REF : c;
    j++;
  }
  return j === value.length ? res : out;
}
