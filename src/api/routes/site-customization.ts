import type { FastifyInstance } from 'fastify';
import type { SiteRecord, Store } from '../../store/index.js';
import type { ApiDeps } from '../deps.js';
import { notFound } from '../http-errors.js';
import { iso } from '../objects/urls.js';
import { defaultSiteCustomization } from '../objects/site-customization.js';
import { deepMerge, siteCustomizationFromBody, siteSpaceOverridesFromBody } from '../objects/site-customization-input.js';
import { siteOfOrg, type SiteParams } from '../site-of-org.js';

type SiteSpaceParams = SiteParams & { siteSpaceId: string };
type Obj = Record<string, unknown>;

/** The language of a site's customization when it has none stored: its default site space's. */
async function siteLocale(store: Store, site: SiteRecord): Promise<string> {
  const spaces = await store.sites.listSiteSpaces(site.id);
  const first = spaces.find((s) => s.id === site.defaultSiteSpaceId) ?? spaces[0];
  const space = first ? await store.spaces.get(first.spaceId) : null;
  const locale = space?.language ?? 'en';
  return ['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'].includes(locale) ? locale : 'en';
}

/** The site's customization: the stored one (with `updatedAt`), else the defaults. */
export async function siteCustomization(store: Store, site: SiteRecord): Promise<Obj> {
  const stored = await store.siteSettings.customization(site.id);
  if (stored) return { ...stored.settings, updatedAt: iso(stored.updatedAt) };
  return defaultSiteCustomization(await siteLocale(store, site)) as Obj;
}

/**
 * A site's customization (`/v1/orgs/{org}/sites/{site}/customization`, GET and PUT, a whole replacement) and a site
 * space's overrides of it (`…/site-spaces/{siteSpace}/customization`, GET the effective settings, PATCH overrides).
 * A publish of the site renders with it (logo, colours, font, header links: src/publish/theme.ts).
 */
export function siteCustomizationRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const { store } = deps;
  const base = '/v1/orgs/:organizationId/sites/:siteId';
  const anyBody = { body: { type: 'object', additionalProperties: true } };

  app.get<{ Params: SiteParams }>(`${base}/customization`, async (request) => siteCustomization(store, await siteOfOrg(store, request, request.params)));

  app.put<{ Params: SiteParams }>(`${base}/customization`, { schema: anyBody }, async (request) => {
    const site = await siteOfOrg(store, request, request.params);
    const settings = siteCustomizationFromBody(request.body, await siteLocale(store, site));
    const stored = await store.siteSettings.putCustomization(site.id, settings);
    return { ...stored.settings, updatedAt: iso(stored.updatedAt) };
  });

  async function siteSpaceOf(site: SiteRecord, siteSpaceId: string) {
    const found = (await store.sites.listSiteSpaces(site.id)).find((s) => s.id === siteSpaceId);
    if (!found) throw notFound(`site space not found: ${siteSpaceId}`);
    return found;
  }

  app.get<{ Params: SiteSpaceParams }>(`${base}/site-spaces/:siteSpaceId/customization`, async (request) => {
    const site = await siteOfOrg(store, request, request.params);
    await siteSpaceOf(site, request.params.siteSpaceId);
    const overrides = await store.siteSettings.siteSpaceCustomization(site.id, request.params.siteSpaceId);
    const effective = deepMerge(await siteCustomization(store, site), overrides?.settings ?? {});
    return overrides ? { ...effective, updatedAt: iso(overrides.updatedAt) } : effective;
  });

  app.patch<{ Params: SiteSpaceParams }>(`${base}/site-spaces/:siteSpaceId/customization`, { schema: anyBody }, async (request) => {
    const site = await siteOfOrg(store, request, request.params);
    await siteSpaceOf(site, request.params.siteSpaceId);
    const siteSettings = await siteCustomization(store, site);
    const current = await store.siteSettings.siteSpaceCustomization(site.id, request.params.siteSpaceId);
    const overrides = siteSpaceOverridesFromBody(request.body, current?.settings ?? {}, siteSettings);
    const stored = await store.siteSettings.putSiteSpaceCustomization(site.id, request.params.siteSpaceId, overrides);
    return { ...deepMerge(siteSettings, stored.settings), updatedAt: iso(stored.updatedAt) };
  });
}
