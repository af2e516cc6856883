import { createHash } from 'node:crypto';

/**
 * Hash of a bundled specification: the root path and every file (sorted by path, length-prefixed so
 * that no two different filesystems can serialize alike). Equal hashes mean no new version is needed.
 */
export function specContentHash(rootPath: string, filesystem: Record<string, string>): string {
  const h = createHash('sha256');
  const put = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    h.update(`${b.length}:`);
    h.update(b);
  };
  put(rootPath);
  for (const key of Object.keys(filesystem).sort()) {
    put(key);
    put(filesystem[key]!);
  }
  return `sha256:${h.digest('hex')}`;
}
