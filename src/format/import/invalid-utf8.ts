/** Decoder that rejects invalid UTF-8 (and keeps a BOM as text). */
export const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** How many bytes of `bytes` are not part of a valid UTF-8 sequence, and the offset of the first (-1: none). */
export function invalidUtf8Offsets(bytes: Uint8Array): { count: number; first: number } {
  let count = 0;
  let first = -1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    let ok = need >= 0 && i + need < bytes.length;
    let cp = need === 1 ? b & 0x1f : need === 2 ? b & 0x0f : b & 0x07;
    for (let k = 1; ok && k <= need; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    // overlong forms, surrogates and code points above U+10FFFF are invalid too
    if (ok && need === 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (ok && need === 3 && (cp < 0x10000 || cp > 0x10ffff)) ok = false;
    if (ok) i += need + 1;
    else {
      count++;
      if (first < 0) first = i;
      i++;
    }
  }
  return { count, first };
}
