import { DocumentInvalidError } from './errors.js';

/** The `ContentRef` of a markdown destination: `#x` an anchor of this page, anything else a URL (relative paths included). */
export function urlToRef(url: string): Record<string, string> {
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) };
  return { kind: 'url', url };
}

/**
 * The markdown destination of a `ContentRef`: URLs and anchors as they are; pages and files through the
 * resolver the caller gives (the revision's paths), else a 4xx-worthy error.
 */
export function refToUrl(ref: Record<string, unknown>, path: string, resolve: (ref: Record<string, unknown>, path: string) => string | undefined): string {
  if (ref.kind === 'url' && typeof ref.url === 'string') return ref.url;
  if (ref.kind === 'anchor' && typeof ref.anchor === 'string' && ref.page === undefined && ref.space === undefined) return `#${ref.anchor}`;
  const resolved = resolve(ref, path);
  if (resolved !== undefined) return resolved;
  throw new DocumentInvalidError(`content reference ${JSON.stringify(ref)} cannot be resolved in this space`, path);
}
