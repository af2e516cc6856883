/**
 * Resolution of destinations written in pages (links, images, Liquid `src`/`url`, includes) to
 * page and file ids, and the reverse: the relative destination to write for a target.
 */
import type { ReferenceTarget } from './model.js';
import { basename, dirname, isExternalUrl, joinPath, relativePath, resolvePath, safeDecode, splitFragment } from './paths.js';

export interface ReferenceIndex {
  /** Page file path → page id. */
  pagesByPath: Map<string, string>;
  /** Space file path → file id. */
  filesByPath: Map<string, string>;
  /** Every path of the tree (to tell "exists but not managed" from "missing"). */
  exists: (path: string) => boolean;
}

export type Resolution = { target: ReferenceTarget; problem?: 'missing' | 'unmanaged' | 'outside' };

function lookup(path: string, index: ReferenceIndex, fragment: string | undefined): ReferenceTarget | null {
  const page = index.pagesByPath.get(path) ?? index.pagesByPath.get(joinPath(path, 'README.md'));
  if (page !== undefined) {
    const t: ReferenceTarget = { kind: 'page', pageId: page };
    if (fragment !== undefined && fragment !== '') t.anchor = fragment;
    return t;
  }
  const file = index.filesByPath.get(path);
  if (file !== undefined) return { kind: 'file', fileId: file };
  return null;
}

/** Resolve `url` written in the file at `fromPath`. Literal path first, then percent-decoded. */
export function resolveReference(url: string, fromPath: string, index: ReferenceIndex): Resolution {
  const trimmed = url.trim();
  if (trimmed === '') return { target: { kind: 'unresolved', path: '' }, problem: 'missing' };
  if (trimmed.startsWith('#')) return { target: { kind: 'anchor' } };
  if (isExternalUrl(trimmed) || trimmed.startsWith('/')) return { target: { kind: 'url' } };
  const { path, fragment } = splitFragment(trimmed);
  if (path === '') return { target: { kind: 'anchor' } };
  const dir = dirname(fromPath);
  const candidates = [path];
  const decoded = safeDecode(path);
  if (decoded !== null && decoded !== path) candidates.push(decoded);
  let firstResolved: string | null = null;
  for (const cand of candidates) {
    const resolved = resolvePath(dir, cand);
    if (resolved === null) continue;
    firstResolved ??= resolved;
    const t = lookup(resolved, index, fragment);
    if (t) return { target: t };
  }
  if (firstResolved === null) return { target: { kind: 'unresolved', path }, problem: 'outside' };
  const exists = candidates.some((c) => {
    const r = resolvePath(dir, c);
    return r !== null && (index.exists(r) || index.exists(joinPath(r, 'README.md')));
  });
  return { target: { kind: 'unresolved', path: firstResolved }, problem: exists ? 'unmanaged' : 'missing' };
}

/**
 * Destination to write in the file at `fromPath` for a target file path, keeping the habits of
 * the previous destination (`dir/` folder form, percent-encoding, fragment, `./` prefix).
 */
export function formatReference(previous: string, fromPath: string, targetPath: string, anchor?: string): string {
  const { path: prevPath } = splitFragment(previous);
  let rel: string;
  const folderForm = prevPath === '' || prevPath.endsWith('/') || prevPath === '.' || !/\.[^/]*$/.test(basename(prevPath));
  if (folderForm && basename(targetPath).toLowerCase() === 'readme.md') {
    rel = relativePath(dirname(fromPath), dirname(targetPath));
    rel = rel === '' ? './' : rel + '/';
  } else {
    rel = relativePath(dirname(fromPath), targetPath);
  }
  if (prevPath.startsWith('./') && !rel.startsWith('.')) rel = './' + rel;
  if (/%[0-9A-Fa-f]{2}/.test(prevPath) && safeDecode(prevPath) !== prevPath)
    rel = rel
      .split('/')
      .map((s) => encodeURIComponent(s))
      .join('/');
  return anchor !== undefined ? `${rel}#${anchor}` : rel;
}
