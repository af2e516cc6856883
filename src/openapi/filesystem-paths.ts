import path from 'node:path';
import { stripCredentials } from '../redact.js';

/** The file name a document gets in a version's filesystem when its URL path gives none. */
export function defaultRootName(isJson: boolean): string {
  return isJson ? 'openapi.json' : 'openapi.yaml';
}

/** The root document's path in the filesystem: the last segment of its URL path. */
export function rootPathForUrl(url: string, isJson: boolean): string {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.split('/').pop() ?? '');
  return name === '' || name === '.' || name === '..' ? defaultRootName(isJson) : name;
}

/**
 * Where a referenced file lives in a version's filesystem: its path relative to the root document when it
 * is on the same origin (`schemas/pet.yaml`, `../common/errors.yaml`, with the query string if any),
 * otherwise its absolute URL without credentials. A relative `$ref` in any stored file therefore resolves,
 * against the stored file's own key, to the key of the file it points to.
 */
export function filesystemKey(rootUrl: string | undefined, fileUrl: string): string {
  const target = new URL(fileUrl);
  if (rootUrl !== undefined) {
    const root = new URL(rootUrl);
    if (root.origin === target.origin && root.protocol === target.protocol) {
      const fromDir = path.posix.dirname(decodeURIComponent(root.pathname));
      const rel = path.posix.relative(fromDir, decodeURIComponent(target.pathname));
      return `${rel}${target.search}`;
    }
  }
  target.hash = '';
  return stripCredentials(target.toString());
}
