import { unified } from 'unified';
import remarkParse from 'remark-parse';
import type { Root } from 'mdast';
import { remarkGitbookGfm } from '../plugins/gfm.js';
import { remarkGitbookMath } from '../plugins/math.js';
import type { Style } from '../types.js';

/**
 * GitBook's 2018–21 exporter wrote emphasis markers without checking CommonMark's flanking rules
 * (`**Release date: **2021`, `选**\)**`, `v_something … v_ 開頭`), so the file holds literal `*`/`_`
 * that are *not* escaped, while real literal asterisks are written `\*`. When re-serializing, a
 * pair of escaped delimiter runs (same character, same length, e.g. `\*\*` … `\*\*`) is written
 * unescaped when re-parsing the phrasing still yields exactly the same tree — i.e. the escapes were
 * not needed. Runs with whitespace on both sides,
 * pairs enclosing nothing but other escaped runs (`\_\*\*\_`) and lone runs stay escaped.
 * An underscore between ASCII word characters (`pg\_hba`) stays escaped (GitBook always escaped those),
 * as do `*` pairs that are intra-word on both sides; escapes inside link destinations are left alone.
 */
const parser = unified().use(remarkParse).use(remarkGitbookGfm).use(remarkGitbookMath);

interface Run {
  char: '*' | '_' | '~';
  len: number;
  start: number;
  end: number;
  intraword: boolean;
  /** ASCII word characters on both sides (`pg\_hba`): GitBook's always-escaped intra-word underscore. */
  asciiIntraword: boolean;
  /** Whitespace (or the edge of the phrasing) on both sides: never an emphasis marker. */
  spaced: boolean;
  /** Whitespace (or the edge) right after the run. */
  spaceAfter?: boolean;
  /** The characters around the run. */
  before?: string;
  after?: string;
}

const WORD = /[\p{L}\p{N}]/u;

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'position') out[k] = strip(v);
    return out;
  }
  return value;
}

export function tree(markdown: string): string {
  return JSON.stringify(strip(parser.parse(markdown) as Root));
}

function findRuns(out: string): Run[] {
  const runs: Run[] = [];
  // Escapes inside link/image destinations follow the destination style, not emphasis rules.
  const destinations = destinationSpans(out);
  for (const m of out.matchAll(/(?:\\\*)+|(?:\\_)+/g)) {
    const start = m.index!;
    if (destinations.some(([a, b]) => start >= a && start < b)) continue;
    // `\\*` is an escaped backslash followed by a (real) delimiter: not ours.
    let backslashes = 0;
    for (let i = start - 1; i >= 0 && out[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 1) continue;
    const end = start + m[0].length;
    const before = out[start - 1] ?? '';
    const after = out[end] === '\\' ? (out[end + 1] ?? '') : (out[end] ?? '');
    const space = (c: string) => c === '' || /\s/.test(c);
    runs.push({
      char: m[0][1] as '*' | '_',
      len: m[0].length / 2,
      start,
      end,
      intraword: WORD.test(before) && WORD.test(after),
      asciiIntraword: /\w/.test(before) && /\w/.test(after),
      spaced: space(before) && space(after),
      spaceAfter: space(after),
      before,
      after,
    });
  }
  return runs;
}

function unescape(out: string, runs: Run[]): string {
  const sorted = [...runs].sort((a, b) => b.start - a.start);
  let s = out;
  for (const r of sorted) s = s.slice(0, r.start) + r.char.repeat(r.len) + s.slice(r.end);
  return s;
}

/** Drop `\*` / `\_` (and, when the file writes `~` plain, `\~`) escapes in serialized phrasing where they are not needed. */
export function relaxDelimiterEscapes(out: string, style: Style): string {
  return relaxTildes(relaxPairs(out, style), style);
}

/**
 * Files whose prose has plain `~` (`chmod 0600 ~/.pgpass`, `~~~~passing`): GFM strikethrough makes
 * mdast-util-to-markdown escape every `~`; each escaped run is written plain when re-parsing still
 * yields the same tree (so `~a~` that would become strikethrough stays escaped).
 */
export function relaxTildes(out: string, style: Style, parse: (markdown: string) => string = tree): string {
  if (style.escapeTilde || !out.includes('\\~')) return out;
  const destinations = destinationSpans(out);
  const runs: Run[] = [];
  for (const m of out.matchAll(/(?:\\~)+/g)) {
    const start = m.index!;
    if (destinations.some(([a, b]) => start >= a && start < b)) continue;
    let backslashes = 0;
    for (let i = start - 1; i >= 0 && out[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 1) continue;
    runs.push({ char: '~', len: m[0].length / 2, start, end: start + m[0].length, intraword: false, asciiIntraword: false, spaced: false });
  }
  if (runs.length === 0) return out;
  const base = parse(out);
  const all = unescape(out, runs);
  if (parse(all) === base) return all;
  const accepted: Run[] = [];
  for (const r of runs) if (parse(unescape(out, [...accepted, r])) === base) accepted.push(r);
  return accepted.length ? unescape(out, accepted) : out;
}

function destinationSpans(out: string): Array<readonly [number, number]> {
  return [...out.matchAll(/\]\((?:<[^>\n]*>|[^)\s]*)/g)].map((m) => [m.index!, m.index! + m[0].length] as const);
}

function relaxPairs(out: string, _style: Style): string {
  if (!out.includes('\\*') && !out.includes('\\_')) return out;
  const runs = findRuns(out);
  if (runs.length === 0) return out;
  const base = tree(out);
  const accepted: Run[] = [];
  const pending: Run[] = [];
  for (const r of runs) {
    let j = -1;
    for (let i = pending.length - 1; i >= 0; i--) {
      const p = pending[i]!;
      if (p.char === r.char && p.len === r.len) {
        j = i;
        break;
      }
    }
    if (j >= 0) {
      const p = pending[j]!;
      const inner = out.slice(p.end, r.start).replace(/\\[*_]/g, '');
      const wordy = r.char === '_' ? p.asciiIntraword || r.asciiIntraword : p.intraword && r.intraword;
      // A strong pair whose text ended with a space (`**Unable. ** “Unable”…`): the closer is spaced.
      const closer = !r.spaced || (r.len >= 2 && !p.spaceAfter);
      // Emphasized text neither starts with closing punctuation nor ends with opening punctuation:
      // `「pg\_」 … 「\_SYSTEM」` are literal underscores, not a broken pair.
      // (Underscores only: `选**\)**` is a real strong around a parenthesis.)
      const bracketed = r.char === '_' && (/^[\p{Pe}\p{Pf}]$/u.test(p.after ?? '') || /^[\p{Ps}\p{Pi}]$/u.test(r.before ?? ''));
      // An opening run glued to the word before it and followed by a space (`\*\*Embeddings\*\* can … \[\*\*Embeddings`)
      // closes rather than opens: literal asterisks around words, never GitBook's broken strong (which wraps words or
      // only a space: `GIN** **可以`). Underscores keep the legacy exporter's broken pairs (`：_ =，_ <>`).
      const openerCloses = r.char === '*' && p.spaceAfter === true && /\S/.test(p.before ?? '') && inner.trim() !== '';
      if (!wordy && !bracketed && !openerCloses && !p.spaced && closer && inner !== '' && tree(unescape(out, [...accepted, p, r])) === base) {
        accepted.push(p, r);
        pending.splice(j, 1);
        continue;
      }
    }
    pending.push(r);
  }
  return accepted.length ? unescape(out, accepted) : out;
}
