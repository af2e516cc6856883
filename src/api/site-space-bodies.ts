import type { FastifyRequest } from 'fastify';
import { rootSiteSpace, siteSpacePrefixes } from '../publish/site-sections.js';
import { siteStructureTree, type SiteRecord, type SiteSpaceRecord } from '../store/index.js';
import { requireAuth } from './auth.js';
import type { ApiDeps } from './deps.js';
import { siteSpaceObject } from './objects/site.js';
import { siteSectionGroupObject, siteSectionObject } from './objects/site-section.js';
import type { UrlBuilder } from './objects/urls.js';
import { spaceFactsOf } from './space-bodies.js';

/**
 * The `SiteSpace` bodies of `list` (site spaces of `site`) for the caller: a site space whose space the caller
 * cannot see is left out, as the space would be anywhere else; each carries its section and its published address.
 */
export async function siteSpaceBodies(deps: ApiDeps, urls: UrlBuilder, request: FastifyRequest, site: SiteRecord, list: SiteSpaceRecord[]) {
  const model = await deps.store.siteSections.structure(site.id);
  const all = model.sections.length > 0 ? await deps.store.sites.listSiteSpaces(site.id) : list;
  const prefixes = siteSpacePrefixes(all, model, rootSiteSpace(all, model, site.defaultSiteSpaceId) ?? null);
  const found = [];
  for (const ss of list) {
    const space = await deps.store.spaces.get(ss.spaceId);
    if (space) found.push({ ss, space });
  }
  const facts = await spaceFactsOf(
    deps.store,
    found.map((f) => f.space),
    requireAuth(request).access,
  );
  return found
    .filter(({ space }) => facts.get(space.id)!.role !== null)
    .map(({ ss, space }) => siteSpaceObject(site, ss, space, facts.get(space.id)!, urls, model.sections.length > 0 ? prefixes.get(ss.id) : undefined));
}

/**
 * The official `SiteStructure` of a site over `list` (its site spaces, or those a publication froze): `sections`
 * (its sections and groups in the site's order) when it has sections, else `siteSpaces`.
 */
export async function siteStructureBody(deps: ApiDeps, urls: UrlBuilder, request: FastifyRequest, site: SiteRecord, list: SiteSpaceRecord[]) {
  const model = await deps.store.siteSections.structure(site.id);
  const bodies = await siteSpaceBodies(deps, urls, request, site, list);
  if (model.sections.length === 0) return { type: 'siteSpaces' as const, structure: bodies };
  const section = (s: (typeof model.sections)[number]) =>
    siteSectionObject(
      site,
      s,
      bodies.filter((b) => b.section === s.id),
      urls,
    );
  const structure = siteStructureTree(model.sections, model.groups).map((e) =>
    e.kind === 'section' ? section(e.section) : siteSectionGroupObject(e.group, e.sections.map(section)),
  );
  return { type: 'sections' as const, structure };
}
