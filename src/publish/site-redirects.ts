/**
 * A site's redirects (issue 33) as its published site follows them: a request for a path that has no page is
 * matched against the site's live redirects (an exact source first, then the longest `/prefix/*` source, whose
 * matched suffix is appended to the destination when `captureWildcard`), and the destination is resolved against
 * the live publication (a page or a site space of the site) or is an external URL. A chain of redirects is followed
 * here, on the server, up to MAX_HOPS: the reader gets one redirect to the end of the chain, and a chain that comes
 * back to a path it passed (a loop) is not followed at all.
 */
import type { PublicationRecord, SiteRedirectRecord, Store } from '../store/index.js';
import { isAbsoluteAllowedUrl } from '../url-policy/index.js';
import { pageAddress } from './build.js';

/** How many redirects a site's published site consults (its live ones, oldest first). */
export const MAX_SITE_REDIRECTS = 5000;
const MAX_HOPS = 10;

/** `/a/b` from `a/b/`, `/a/b.md`, `a/b`: the form of a source. */
export function sourcePath(path: string): string {
  return `/${path.replace(/^\/+|\/+$/g, '').replace(/\.md$/, '')}`;
}

export function matchRedirect(redirects: SiteRedirectRecord[], path: string): { redirect: SiteRedirectRecord; suffix: string } | null {
  const exact = redirects.find((r) => r.source === path);
  if (exact) return { redirect: exact, suffix: '' };
  let best: { redirect: SiteRedirectRecord; suffix: string } | null = null;
  for (const r of redirects) {
    if (!r.source.endsWith('*')) continue;
    const prefix = r.source.slice(0, -1);
    const stem = prefix.replace(/\/$/, '');
    if (!(path.startsWith(prefix) || path === stem)) continue;
    if (best && best.redirect.source.length >= r.source.length) continue;
    best = { redirect: r, suffix: path.startsWith(prefix) ? path.slice(prefix.length) : '' };
  }
  return best;
}

export type RedirectTarget = { kind: 'site'; href: string } | { kind: 'external'; url: string };

/** Where a destination leads in the live publication (null: its page or site space is not published). */
export async function resolveDestination(store: Store, publication: PublicationRecord, destination: Record<string, unknown>): Promise<RedirectTarget | null> {
  if (destination.kind === 'external')
    return typeof destination.url === 'string' && isAbsoluteAllowedUrl(destination.url) ? { kind: 'external', url: destination.url } : null;
  // A section leads to its default site space (where the section is served).
  const siteSpaceId =
    destination.kind === 'site-section'
      ? (await store.siteSections.structure(publication.siteId)).sections.find((s) => s.id === destination.siteSectionId)?.defaultSiteSpaceId
      : destination.siteSpaceId;
  const ss = publication.structure.siteSpaces.find((s) => s.siteSpaceId === siteSpaceId);
  if (!ss) return null;
  const prefix = ss.prefix ?? (ss.default ? '' : `${ss.path}/`);
  if (destination.kind === 'site-space' || destination.kind === 'site-section') return { kind: 'site', href: prefix };
  if (destination.kind !== 'site-page' || typeof destination.pageId !== 'string' || !ss.revisionId) return null;
  const page = await store.revisions.page(ss.revisionId, destination.pageId);
  if (!page || page.kind !== 'document') return null;
  return { kind: 'site', href: pageAddress(prefix, { path: page.path ?? '' } as never).href };
}

function withSuffix(target: RedirectTarget, raw: string): RedirectTarget {
  if (raw === '') return target;
  const suffix = raw.split('/').map(encodeURIComponent).join('/');
  if (target.kind === 'external') return { kind: 'external', url: `${target.url.replace(/\/+$/, '')}/${suffix}` };
  return { kind: 'site', href: `${target.href.replace(/\/+$/, '')}${target.href === '' ? '' : '/'}${suffix}` };
}

/**
 * The end of the redirect chain from `path` (site-relative, no leading slash), or null when no redirect matches or
 * the chain loops. `permanent` when every redirect of the chain is.
 */
export async function followSiteRedirects(
  store: Store,
  siteId: string,
  publication: PublicationRecord,
  path: string,
  /** Whether the publication has a page at a site-relative address (the chain stops at a page). */
  exists: (href: string) => Promise<boolean>,
): Promise<{ target: RedirectTarget; permanent: boolean } | null> {
  const redirects = await store.siteSettings.liveRedirects(siteId, MAX_SITE_REDIRECTS);
  if (redirects.length === 0) return null;
  const seen = new Set<string>();
  let current = sourcePath(path);
  let target: RedirectTarget | null = null;
  let permanent = true;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    seen.add(current);
    const match = matchRedirect(redirects, current);
    const resolved = match ? await resolveDestination(store, publication, match.redirect.destination) : null;
    if (!match || !resolved) return target ? { target, permanent } : null;
    target = match.redirect.captureWildcard ? withSuffix(resolved, match.suffix) : resolved;
    permanent &&= match.redirect.permanent;
    if (target.kind === 'external' || (await exists(target.href))) return { target, permanent };
    current = sourcePath(target.href);
    if (seen.has(current)) return null;
  }
  return null;
}
