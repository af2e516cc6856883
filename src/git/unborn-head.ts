/**
 * A remote whose HEAD names a branch it does not have (only other branches pushed, the default one deleted, or a
 * repository Folio exports to branches of their own) advertises no HEAD over protocol v1: no `HEAD` line and no
 * `symref=HEAD:…` capability. isomorphic-git's fetch then fails looking for the remote's HEAD (to report its default
 * branch, which Folio never uses) after it has moved the tracking ref and before it stores the pack: every fetch of
 * an existing branch of such a repository failed with "object HEAD not found". The upload-pack advertisement is
 * given an empty `symref=HEAD:` capability in that case (the HEAD is unborn: it names nothing here), so that the
 * fetch completes; a fetch of `HEAD` itself still finds no such ref.
 */
const ZERO_ID_CAPABILITIES = '0000000000000000000000000000000000000000 capabilities^{}';

function pktLine(payload: string): Uint8Array {
  const bytes = new TextEncoder().encode(payload);
  const out = new Uint8Array(bytes.byteLength + 4);
  out.set(new TextEncoder().encode((bytes.byteLength + 4).toString(16).padStart(4, '0')), 0);
  out.set(bytes, 4);
  return out;
}

/** The advertisement with `symref=HEAD:` added to its capabilities when it advertises no HEAD; else the same bytes. */
export function withUnbornHead(body: Uint8Array): Uint8Array {
  const decoder = new TextDecoder();
  let first: { start: number; end: number; text: string } | undefined;
  let at = 0;
  while (at + 4 <= body.byteLength) {
    const length = Number.parseInt(decoder.decode(body.subarray(at, at + 4)), 16);
    if (!Number.isInteger(length) || (length > 0 && length < 4) || at + length > body.byteLength) return body; // not pkt-lines
    if (length === 0) {
      at += 4;
      continue;
    }
    const text = decoder.decode(body.subarray(at + 4, at + length));
    if (!first && !text.startsWith('# service=')) {
      if (text.startsWith('version 2')) return body;
      first = { start: at, end: at + length, text };
    }
    if (first && text.replace(/\n$/, '').split(' ')[1]?.split('\0')[0] === 'HEAD') return body;
    at += length;
  }
  if (!first) return body;
  const nul = first.text.indexOf('\0');
  if (nul < 0 || first.text.startsWith(ZERO_ID_CAPABILITIES)) return body;
  const capabilities = first.text.slice(nul + 1).replace(/\n$/, '');
  if (capabilities.split(' ').some((c) => c.startsWith('symref=HEAD:'))) return body;
  const line = pktLine(`${first.text.slice(0, nul + 1)}${capabilities} symref=HEAD:\n`);
  const out = new Uint8Array(body.byteLength - (first.end - first.start) + line.byteLength);
  out.set(body.subarray(0, first.start), 0);
  out.set(line, first.start);
  out.set(body.subarray(first.end), first.start + line.byteLength);
  return out;
}
