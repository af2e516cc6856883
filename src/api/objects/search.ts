import type { PageHit as SearchPageHit } from '../../search/query.js';
import type { UrlBuilder } from './urls.js';

const pagePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** A `SearchPageResult` of the platform API: the page, its matching sections (with snippets) and its ancestors. */
export function searchPageObject(hit: SearchPageHit, urls: UrlBuilder) {
  const app = urls.app(`/s/${hit.spaceId}/${pagePath(hit.path)}`);
  return {
    id: hit.pageId,
    title: hit.title,
    description: hit.description,
    path: hit.path,
    score: hit.score,
    rank: hit.rank,
    resultType: hit.resultType,
    sections: hit.sections.map((s) => ({
      id: s.anchor === '' ? hit.pageId : `${hit.pageId}/${s.anchor}`,
      title: s.anchor === '' ? hit.title : s.title,
      path: s.anchor === '' ? hit.path : `${hit.path}#${s.anchor}`,
      score: s.score,
      resultType: s.anchor === '' ? ('page' as const) : ('section' as const),
      body: s.snippet,
      urls: { app: s.anchor === '' ? app : `${app}#${encodeURIComponent(s.anchor)}` },
    })),
    ancestors: hit.ancestors.map((title) => ({ title })),
    urls: { app },
  };
}

/** `SearchSpaceResult`s: pages grouped by space in the order of their best page (ranks stay global). */
export function searchSpaceObjects(hits: SearchPageHit[], titles: Map<string, string>, urls: UrlBuilder) {
  const bySpace = new Map<string, SearchPageHit[]>();
  for (const hit of hits) bySpace.set(hit.spaceId, [...(bySpace.get(hit.spaceId) ?? []), hit]);
  return [...bySpace.entries()].map(([spaceId, pages]) => ({
    type: 'space' as const,
    id: spaceId,
    title: titles.get(spaceId) ?? '',
    score: Math.max(...pages.map((p) => p.score)),
    pages: pages.map((p) => searchPageObject(p, urls)),
  }));
}
