/**
 * Words of a text, as counted for a translation's `stats`: runs of letters and digits (apostrophes and hyphens
 * inside a word kept), and every CJK ideograph, kana or hangul syllable on its own (those scripts have no spaces).
 */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

export function countWords(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(WORD)) n++;
  return n;
}
