/** POSIX path helpers for repository-relative paths (`''` = repository root). */

/** Normalize `a/./b/../c` → `a/c`; returns null when the path climbs above its base. */
export function normalizePath(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

export function joinPath(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}

/** Resolve `rel` against directory `dir` (both repository-relative). null when it escapes the repository. */
export function resolvePath(dir: string, rel: string): string | null {
  if (rel.startsWith('/')) return normalizePath(rel.slice(1));
  return normalizePath(joinPath(dir, rel));
}

export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function basename(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

export { isWithin } from './is-within.js';

/** Path of `to` relative to directory `fromDir`. */
export function relativePath(fromDir: string, to: string): string {
  const a = fromDir === '' ? [] : fromDir.split('/');
  const b = to === '' ? [] : to.split('/');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const up = a.slice(i).map(() => '..');
  return [...up, ...b.slice(i)].join('/');
}

export function isMarkdownPath(path: string): boolean {
  return /\.md$/i.test(path);
}

/** Strip `?query` and `#fragment` from a URL-ish destination. */
export function splitFragment(url: string): { path: string; fragment?: string } {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const q = base.indexOf('?');
  const path = q < 0 ? base : base.slice(0, q);
  return hash < 0 ? { path } : { path, fragment: url.slice(hash + 1) };
}

/** Whether a destination is an absolute URL (scheme:) or protocol-relative. */
export function isExternalUrl(url: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url) || url.startsWith('//');
}

/** Percent-decode, or null when the sequence is malformed. */
export function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
