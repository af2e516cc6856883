import { ValidationError } from '../errors.js';
import type { PublicationRecord, SiteRecord, Store } from '../store/index.js';
import { SEARCH_SHELL_PATH, SEARCH_SLOT } from '../publish/layout.js';
import { searchHref, searchResultsHtml, type SiteSearchHit, type SiteSearchView } from '../publish/search-results.js';
import { searchPagesTolerant, type PageHit } from '../search/query.js';

const RESULTS_PER_PAGE = 20;

/** A hit's page in the live publication: its site-relative address, or null when the publication has no such page. */
async function resolveHit(store: Store, publication: PublicationRecord, hit: PageHit, multi: boolean): Promise<SiteSearchHit | null> {
  const siteSpace = publication.structure.siteSpaces.find((s) => s.spaceId === hit.spaceId);
  if (!siteSpace) return null;
  const prefix = siteSpace.prefix ?? (siteSpace.default ? '' : `${siteSpace.path}/`);
  const segments = hit.path.split('/').filter((s) => s !== '');
  const dir = prefix + segments.map((s) => `${s}/`).join('');
  if (!(await store.sites.publicationFile(publication.id, `${dir}index.html`))) return null;
  return {
    href: prefix + segments.map((s) => `${encodeURIComponent(s)}/`).join(''),
    title: hit.title,
    description: hit.description,
    crumbs: [...(multi ? [siteSpace.title] : []), ...hit.ancestors],
    sections: hit.sections.map((s) => ({ anchor: s.anchor, title: s.title, snippet: s.snippet })),
  };
}

/**
 * The site's search page for `?q=…` (`&page=` for more): the search index of the site spaces' spaces (the
 * publication's, in the site's organization only) with typo tolerance, results kept to pages the live
 * publication serves, rendered into the publication's search frame. The caller has already applied the site's
 * audience rules (share link). null when the publication has no search frame (published before it existed).
 */
export async function siteSearchPage(
  store: Store,
  site: SiteRecord,
  publication: PublicationRecord,
  query: Record<string, unknown>,
): Promise<{ status: number; html: string } | null> {
  const file = await store.sites.publicationFile(publication.id, SEARCH_SHELL_PATH);
  const bytes = file ? await store.blobs.get(file.hash) : null;
  if (!bytes) return null;
  const shell = new TextDecoder().decode(bytes);
  const q = typeof query.q === 'string' ? query.q : '';
  const page = typeof query.page === 'string' && query.page !== '' ? query.page : undefined;
  const spaceIds = publication.structure.siteSpaces.map((s) => s.spaceId);
  let view: SiteSearchView = { query: q, hits: [] };
  let status = 200;
  if (q.length > 512) {
    view = { query: q.slice(0, 512), hits: [], problem: 'The search is too long: 512 characters at most.' };
    status = 400;
  } else if (q.trim() !== '' && spaceIds.length > 0) {
    try {
      const found = await searchPagesTolerant(store, {
        organizationId: site.organizationId,
        spaceIds,
        query: q,
        limit: RESULTS_PER_PAGE,
        ...(page ? { page } : {}),
      });
      const multi = publication.structure.siteSpaces.length > 1;
      const hits = (await Promise.all(found.items.map((hit) => resolveHit(store, publication, hit, multi)))).filter((h) => h !== null);
      view = {
        query: q,
        hits,
        ...(found.corrected ? { corrected: found.corrected } : {}),
        ...(found.next ? { next: searchHref(found.corrected ?? q, found.next.page) } : {}),
      };
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      view = { query: q, hits: [], problem: 'This search cannot be run: start a new one.' };
      status = 400;
    }
  }
  return { status, html: shell.replace(SEARCH_SLOT, () => searchResultsHtml(view)) };
}
