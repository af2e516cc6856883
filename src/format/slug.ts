/**
 * The one slug rule of Folio: every pipeline that derives a page's URL segment from a title (group and link
 * titles of an imported SUMMARY.md, pages created through change requests, the next pipelines) uses it, so the
 * same title gives the same slug whichever way the page was made.
 *
 * `slugify(title)`:
 * 1. Latin diacritics are dropped (`Café` → `cafe`, `Ångström` → `angstrom`); compatibility forms are folded
 *    (`ﬁ` → `fi`, full-width `Ａ１` → `a1`); other scripts keep their letters whole (`快速開始`, `ガイド`,
 *    `한국어`, `हिन्दी`: composed again after the fold, combining marks of non-Latin scripts are kept).
 * 2. Lowercase.
 * 3. Every run of characters that are not letters, digits or combining marks (spaces, punctuation, symbols,
 *    emoji; an emoji's variation selector and a keycap's enclosing mark go with it) becomes one `-`; `-` at
 *    either end is removed.
 * 4. At most {@link MAX_SLUG_LENGTH} code points, cut between graphemes, then trailing `-` removed again.
 * 5. A title that leaves nothing (empty, only emoji or punctuation) gives `page`.
 *
 * `uniqueSlug(wanted, taken)`: among siblings a slug is unique; a derived slug already used by a sibling gets
 * the first free suffix `-2`, `-3`, … (kept within the length limit).
 */

/** Longest slug, in code points. */
export const MAX_SLUG_LENGTH = 100;

/** The slug of an empty (or all-symbol) title. */
export const FALLBACK_SLUG = 'page';

/** Combining diacritics of Latin letters, enclosing marks (keycaps) and variation selectors (emoji presentation). */
const DROPPED_MARKS = /[\u0300-\u036f\p{Me}\ufe00-\ufe0f]/gu;
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/gu;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cuts `text` to at most `max` code points without splitting a grapheme. */
function truncate(text: string, max: number): string {
  if ([...text].length <= max) return text;
  let out = '';
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    const n = [...segment].length;
    if (length + n > max) break;
    out += segment;
    length += n;
  }
  return out;
}

export function slugify(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(DROPPED_MARKS, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(SEPARATORS, '-')
    .replace(/^-+|-+$/g, '');
  const slug = truncate(words, MAX_SLUG_LENGTH).replace(/-+$/, '');
  return slug || FALLBACK_SLUG;
}

/** `wanted` if no sibling uses it, else `wanted-2`, `wanted-3`, … (the first free one). */
export function uniqueSlug(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${truncate(wanted, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
