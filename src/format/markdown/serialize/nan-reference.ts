/**
 * GitBook's exporter writes an emphasis that follows an empty text leaf as `&#xNAN;_&#x42;itcoin…_`:
 * mdast-util-to-markdown's attention encoding reads the character before the marker from the empty text
 * (`NaN`, classified as a letter), so for `_` with a letter (or a space) inside it encodes both sides —
 * the "outside" character becomes the literal `&#xNAN;` and the first character inside becomes a hex
 * reference. A re-import reads `&#xNAN;` as text and `&#x42;` as `B`; writing the page again, Folio
 * reproduces the reference after an unescaped `&#xNAN;` so the bytes stay GitBook's.
 * (An escaped `\&#xNAN;` is a later export of that text: there the marker follows `;` and nothing is encoded.)
 */
const AFTER_NAN = /(?<!\\)&#xNAN;_([\p{L}\p{N}\s])/gu;

export function encodeAttentionAfterNaN(out: string): string {
  if (!out.includes('&#xNAN;_')) return out;
  return out.replace(AFTER_NAN, (_m, head: string) => `&#xNAN;_&#x${head.codePointAt(0)!.toString(16).toUpperCase()};`);
}
