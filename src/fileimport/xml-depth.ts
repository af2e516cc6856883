/**
 * How deep the elements of an XML document nest, measured by a linear scan of its tags (no tree is built, nothing
 * recurses): start tags open a level, end tags close one, empty-element tags, comments, CDATA sections, processing
 * instructions and the DOCTYPE (internal subset included) do neither. Attribute values may hold `>`, never `<`.
 * Malformed XML is not judged here (its parser will); the scan only has to be right about well-formed documents.
 */

/** The first depth over `limit` reached in `xml`, or null when it never nests deeper than `limit`. */
export function xmlDepthOver(xml: string, limit: number): number | null {
  let depth = 0;
  let i = xml.indexOf('<');
  while (i !== -1) {
    const next = xml.charCodeAt(i + 1);
    let end: number;
    if (xml.startsWith('<!--', i)) end = after(xml, '-->', i + 4);
    else if (xml.startsWith('<![CDATA[', i)) end = after(xml, ']]>', i + 9);
    else if (next === 0x3f /* ? */) end = after(xml, '?>', i + 2);
    else if (next === 0x21 /* ! */) end = declarationEnd(xml, i + 2);
    else {
      end = tagEnd(xml, i + 1);
      if (next === 0x2f /* / */) depth--;
      else if (xml.charCodeAt(end - 2) !== 0x2f /* an empty-element tag ends with `/>` */) {
        depth++;
        if (depth > limit) return depth;
      }
    }
    if (end < 0) return null;
    i = xml.indexOf('<', end);
  }
  return null;
}

/** The index just after `token` found from `from`, or -1. */
function after(xml: string, token: string, from: number): number {
  const at = xml.indexOf(token, from);
  return at < 0 ? -1 : at + token.length;
}

/** The index just after the `>` closing a tag, skipping quoted attribute values; -1 when it never closes. */
function tagEnd(xml: string, from: number): number {
  let quote = 0;
  for (let j = from; j < xml.length; j++) {
    const c = xml.charCodeAt(j);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return j + 1;
  }
  return -1;
}

/** The index just after a `<!DOCTYPE …>` (or other declaration), its `[…]` internal subset included. */
function declarationEnd(xml: string, from: number): number {
  let quote = 0;
  let subset = false;
  for (let j = from; j < xml.length; j++) {
    const c = xml.charCodeAt(j);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x5b /* [ */) subset = true;
    else if (c === 0x5d /* ] */) subset = false;
    else if (c === 0x3e && !subset) return j + 1;
  }
  return -1;
}
