/**
 * Text preparation for full-text search that PostgreSQL's parsers do not do: Chinese, Japanese and Korean
 * have no spaces between words, so `to_tsvector` would index a whole run of ideographs as one word. Each run
 * becomes its overlapping character bigrams ("資料庫" → "資料 料庫"), in the indexed text and in the query (as
 * a phrase), which finds any word of two or more characters inside a run without a dictionary.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function hasCjk(text: string): boolean {
  return HAS_CJK.test(text);
}

function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** The text as indexed: CJK runs as bigrams, the rest as it is. */
export function indexableText(text: string): string {
  return hasCjk(text) ? text.replace(CJK, (run) => ` ${bigrams(run).join(' ')} `) : text;
}

/** A query for `websearch_to_tsquery`: each CJK run becomes a quoted phrase of its bigrams. */
export function queryText(query: string): string {
  if (!hasCjk(query)) return query;
  // A run already inside quotes keeps its phrase; outside, it becomes one.
  return query.replace(CJK, (run) => {
    const grams = bigrams(run).join(' ');
    return ` "${grams}" `;
  });
}

/** The words of a query, for highlighting text PostgreSQL's headline cannot (CJK runs). */
export function queryTerms(query: string): string[] {
  return query
    .split(/[\s"'()\-|&!:*]+/u)
    .map((t) => t.trim())
    .filter((t) => t !== '' && !/^(or|and)$/i.test(t));
}
