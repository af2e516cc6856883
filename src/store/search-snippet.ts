/**
 * Snippets of matching sections built from their stored text, instead of `ts_headline` (which parses and
 * normalises every word of every section shown, for each search: most of a search's time on long sections).
 * The words that match are decided by PostgreSQL all the same: the text's distinct words that could match (they
 * share their first letters with a lexeme of the query) are normalised by the space's configuration in one small
 * statement (`tsvector_to_array(to_tsvector(config, word))`), and a word matches when one of its lexemes is one of
 * the query's. The fragments follow `ts_headline`'s options used before (MaxWords=30, MinWords=12,
 * MaxFragments=2, " … " between fragments): up to two windows of 30 words around the matches, in text order;
 * the first 12 words when no word matches (the section matched by its title). HTML tags in the text are dropped,
 * the rest HTML-escaped, matched words in `<mark>`…`</mark>`.
 */

const MAX_WORDS = 30;
const MIN_WORDS = 12;
const MAX_FRAGMENTS = 2;
const DELIMITER = ' … ';
/** Words: letters, digits and `_`, joined by `.`, `-` or an apostrophe (`node.js`, `api-key`, `don't`): one mark for the whole. */
const WORD = /[\p{L}\p{N}_]+(?:[.'’-][\p{L}\p{N}_]+)*/gu;
const TAG = /<\/?[A-Za-z][^<>]*>/g;
const ASCII = /^[\x00-\x7f]*$/;

function escapeHtml(text: string): string {
  if (!/[&<>"]/.test(text)) return text;
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** Lower case without accents: for the cheap "could match" test only. */
function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The lexemes of a `tsquery` as PostgreSQL prints it (`'api' & !'rate' <-> 'limit':*`): every operand, negated ones too (as `ts_headline` marks them). */
export function queryLexemes(tsquery: string): string[] {
  const out = new Set<string>();
  for (const m of tsquery.matchAll(/'((?:[^'\\]|''|\\.)*)'/g)) out.add(m[1]!.replace(/''/g, "'").replace(/\\(.)/g, '$1'));
  return [...out];
}

/** The lexemes of a `tsquery` a matching text holds: its operands, but for those negated one by one (`!'beta'`). */
export function positiveLexemes(tsquery: string): string[] {
  const out = new Set<string>();
  for (const m of tsquery.matchAll(/(!?)'((?:[^'\\]|''|\\.)*)'/g)) if (m[1] === '') out.add(m[2]!.replace(/''/g, "'").replace(/\\(.)/g, '$1'));
  return [...out];
}

/** A section's text without its HTML tags, and its words (start and end offsets, the word). */
export interface Tokenized {
  text: string;
  starts: number[];
  ends: number[];
  words: string[];
}

/** Characters of a long section looked at for its snippet: from a little before the first word that could match. */
const WINDOW_CHARS = 6000;
const WINDOW_LEAD = 1000;

/** Where in a long text the words that could match one of `lexemes` begin (0: none found, or a short text). */
function windowStart(body: string, lexemes: string[]): number {
  if (body.length <= WINDOW_CHARS) return 0;
  const starts = [...new Set(lexemes.map((l) => l.slice(0, 2)).filter((p) => p !== ''))];
  if (starts.length === 0) return 0;
  const first = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${starts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'iu').exec(body);
  if (!first || first.index < WINDOW_CHARS - WINDOW_LEAD) return 0;
  const from = first.index - WINDOW_LEAD;
  const space = body.indexOf(' ', from);
  return space >= 0 && space < first.index ? space + 1 : from;
}

/**
 * The words of a section's text, once for both the candidate words and the snippet; of a long text, only
 * `WINDOW_CHARS` characters from a little before the first word that could match one of `lexemes` (the work
 * of a search stays bounded whatever its sections' length; PostgreSQL's headline read them whole).
 */
export function tokenize(body: string, lexemes: string[] = []): Tokenized {
  const start = windowStart(body, lexemes);
  const text = (body.length > WINDOW_CHARS ? body.slice(start, start + WINDOW_CHARS) : body).replace(TAG, ' ');
  const out: Tokenized = { text, starts: [], ends: [], words: [] };
  for (const m of text.matchAll(WORD)) {
    out.starts.push(m.index);
    out.ends.push(m.index + m[0].length);
    out.words.push(m[0]);
  }
  return out;
}

const SEPARATOR = /[.'’_-]/;

/** The distinct words of `texts` that could match one of `lexemes` (a part of them starts as one does): to be normalised by the database. */
export function candidateWords(texts: Array<string | Tokenized>, lexemes: string[]): string[] {
  const starts = new Set(lexemes.map((l) => fold(l).slice(0, 2)).filter((p) => p !== ''));
  if (starts.size === 0) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const text of texts)
    for (const word of (typeof text === 'string' ? tokenize(text) : text).words) {
      if (seen.has(word)) continue;
      seen.add(word);
      const lower = ASCII.test(word) ? word.toLowerCase() : fold(word);
      const parts = SEPARATOR.test(lower) ? lower.split(SEPARATOR) : [lower];
      if (parts.some((part) => starts.has(part.slice(0, 2)))) out.push(word);
    }
  return out;
}

interface Token {
  start: number;
  end: number;
  word: string;
  /** The query lexeme this word matched, or null. */
  lexeme: string | null;
}

/** The best window of `MAX_WORDS` words around matches not in `taken` ([first, last] word indexes), or null. */
function bestWindow(tokens: Token[], matches: number[], taken: Array<[number, number]>): [number, number] | null {
  const free = matches.filter((i) => !taken.some(([a, b]) => i >= a && i <= b));
  let best: { first: number; last: number; distinct: number; count: number } | null = null;
  for (const anchor of free) {
    // Up to the next window taken, if any.
    const limit = Math.min(anchor + MAX_WORDS - 1, ...taken.filter(([a]) => a > anchor).map(([a]) => a - 1));
    const inside = free.filter((i) => i >= anchor && i <= limit);
    const distinct = new Set(inside.map((i) => tokens[i]!.lexeme)).size;
    if (!best || distinct > best.distinct || (distinct === best.distinct && inside.length > best.count))
      best = { first: inside[0]!, last: inside[inside.length - 1]!, distinct, count: inside.length };
  }
  if (!best) return null;
  // Centred on its matches, within the text, clear of the windows already taken.
  let start = Math.max(0, best.first - Math.floor((MAX_WORDS - (best.last - best.first + 1)) / 2));
  let end = Math.min(tokens.length - 1, start + MAX_WORDS - 1);
  start = Math.max(0, Math.min(start, end - MAX_WORDS + 1));
  for (const [a, b] of taken) {
    if (a <= best.first && b >= start) start = b + 1;
    if (a >= best.last && a <= end) end = a - 1;
  }
  return [start, end];
}

/** The HTML of words `first`..`last` of `text`: text between words kept (whitespace collapsed), matches marked. */
function render(text: string, tokens: Token[], first: number, last: number): string {
  let out = '';
  for (let i = first; i <= last; i++) {
    const t = tokens[i]!;
    if (i > first) out += escapeHtml(text.slice(tokens[i - 1]!.end, t.start).replace(/\s+/g, ' '));
    const word = escapeHtml(t.word);
    out += t.lexeme !== null ? `<mark>${word}</mark>` : word;
  }
  return out;
}

/**
 * The snippet of a section's text: `lexemesOf(word)` gives the query lexemes a word of the text normalises to
 * (none: not a match).
 */
export function buildSnippet(body: string | Tokenized, lexemesOf: (word: string) => string | null): string {
  const { text, starts, ends, words } = typeof body === 'string' ? tokenize(body) : body;
  const tokens: Token[] = words.map((word, i) => ({ start: starts[i]!, end: ends[i]!, word, lexeme: lexemesOf(word) }));
  if (tokens.length === 0) return '';
  const matches = tokens.flatMap((t, i) => (t.lexeme !== null ? [i] : []));
  const windows: Array<[number, number]> = [];
  while (windows.length < MAX_FRAGMENTS) {
    const window = bestWindow(tokens, matches, windows);
    if (!window || window[0] > window[1]) break;
    windows.push(window);
  }
  if (windows.length === 0) return render(text, tokens, 0, Math.min(tokens.length, MIN_WORDS) - 1);
  return windows
    .sort((a, b) => a[0] - b[0])
    .map(([a, b]) => render(text, tokens, a, b))
    .join(DELIMITER);
}
