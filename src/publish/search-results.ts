import { esc } from './escape.js';

/** One result of a site's search page, its addresses already resolved in the live publication. */
export interface SiteSearchHit {
  /** Site-relative address of the page (`guides/install/`). */
  href: string;
  title: string;
  description: string;
  /** The site space's title (when the site has more than one) and the page's ancestors. */
  crumbs: string[];
  /** Matching sections: snippet HTML as the search index makes it (escaped text, matches in `<mark>`). */
  sections: Array<{ anchor: string; title: string; snippet: string }>;
}

export interface SiteSearchView {
  query: string;
  hits: SiteSearchHit[];
  /** The corrected query actually searched (a misspelling found nothing). */
  corrected?: string;
  /** Site-relative address of the next page of results. */
  next?: string;
  /** A message instead of results (a refused query). */
  problem?: string;
}

/** `~search?q=…` (site-relative), for the next page of results. */
export function searchHref(query: string, page?: string): string {
  return `~search?q=${encodeURIComponent(query)}${page !== undefined ? `&page=${encodeURIComponent(page)}` : ''}`;
}

function hitHtml(hit: SiteSearchHit): string {
  const href = esc(hit.href || './');
  const crumbs = hit.crumbs.length > 0 ? `<p class="crumbs">${hit.crumbs.map(esc).join(' › ')}</p>` : '';
  const sections = hit.sections
    .slice(0, 3)
    .map((s) => {
      const link = s.anchor !== '' ? `<a href="${href}#${esc(encodeURIComponent(s.anchor))}">${esc(s.title || hit.title)}</a>` : '';
      return `<li>${link}<p class="snippet">${s.snippet}</p></li>`;
    })
    .join('');
  const description = hit.description !== '' ? `<p class="description">${esc(hit.description)}</p>` : '';
  return `<li>${crumbs}<a class="hit-title" href="${href}">${esc(hit.title)}</a>${description}${sections !== '' ? `<ul>${sections}</ul>` : ''}</li>`;
}

/**
 * The form and results of a site's search page (what the server puts at `SEARCH_SLOT` of the publication's
 * search frame): a plain GET form, the results as an ordered list of links, a status line, a link to more.
 * Everything escaped; snippets come escaped from the index with `<mark>` around matches.
 */
export function searchResultsHtml(view: SiteSearchView): string {
  const form = `<form class="search-page" role="search" action="~search" method="get"><label for="search-page-q">Search this site</label><input id="search-page-q" type="search" name="q" value="${esc(view.query)}" maxlength="512"><button type="submit">Search</button></form>`;
  if (view.problem !== undefined) return `${form}\n<p role="status">${esc(view.problem)}</p>`;
  if (view.query.trim() === '') return form;
  const count = view.hits.length === 0 ? `No results for “${esc(view.query)}”.` : `Results for “${esc(view.corrected ?? view.query)}”`;
  const corrected =
    view.corrected !== undefined && view.hits.length > 0 ? `Showing results for “${esc(view.corrected)}”: no results for “${esc(view.query)}”.` : count;
  const list = view.hits.length > 0 ? `\n<ol class="search-results">${view.hits.map(hitHtml).join('')}</ol>` : '';
  const more = view.next !== undefined ? `\n<p><a rel="next" href="${esc(view.next)}">More results</a></p>` : '';
  return `${form}\n<p role="status">${corrected}</p>${list}${more}`;
}
