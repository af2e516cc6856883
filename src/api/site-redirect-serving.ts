import type { PublicationRecord, SiteRecord, Store } from '../store/index.js';
import { followSiteRedirects } from '../publish/site-redirects.js';

/**
 * The answer of a published site to a path with no page that one of the site's redirects matches (issue 33): the
 * end of the redirect chain (src/publish/site-redirects.ts). As the official `SiteRedirect` says, a permanent
 * redirect is a 308 on a public site and a 307 elsewhere; a temporary one is a 302. Null: no redirect applies.
 */
export async function siteRedirectAnswer(
  store: Store,
  site: SiteRecord,
  publication: PublicationRecord,
  path: string,
  base: string,
): Promise<{ status: number; location: string } | null> {
  const exists = async (href: string) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(href);
    } catch {
      return false;
    }
    const candidates = decoded === '' || decoded.endsWith('/') ? [`${decoded}index.html`] : [decoded, `${decoded}/index.html`];
    for (const c of candidates) if (await store.sites.publicationFile(publication.id, c)) return true;
    return false;
  };
  const found = await followSiteRedirects(store, site.id, publication, path, exists);
  if (!found) return null;
  const location = found.target.kind === 'external' ? found.target.url : `${base}/${found.target.href}`;
  const status = found.permanent ? (site.visibility === 'public' ? 308 : 307) : 302;
  return { status, location };
}
