/**
 * Conflict rule of an export: the remote branch moved since the last sync (`remoteChanged`: paths changed
 * between the synced commit and the remote head) and Folio's changes touch some of the same paths with
 * different content. Paths where both sides wrote the same bytes are no conflict.
 */
export function conflictingPaths(
  ours: Map<string, Uint8Array | null>,
  remoteChanged: ReadonlySet<string>,
  remoteOidOf: (path: string) => string | undefined,
  oidOf: (bytes: Uint8Array) => string,
): string[] {
  const out: string[] = [];
  for (const [p, bytes] of ours) {
    if (!remoteChanged.has(p)) continue;
    const remote = remoteOidOf(p);
    if (bytes === null ? remote === undefined : remote === oidOf(bytes)) continue;
    out.push(p);
  }
  return out.sort();
}
