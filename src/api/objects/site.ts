import type { ShareLinkRecord, SiteRecord, SiteSpaceRecord, SpaceRecord } from '../../store/index.js';
import { spaceObject, type SpaceFacts } from './space.js';
import { iso, type UrlBuilder } from './urls.js';

/** The published address of a site: `<public base>/sites/<basename>/`. */
export function publishedSiteUrl(site: SiteRecord, urls: UrlBuilder): string {
  return urls.api('/').replace(/\/v1\/$/, `/sites/${encodeURIComponent(site.basename)}/`);
}

/**
 * The official `Site` object, with one member of Folio's own (the spec has none for it): `folioPublishing`, the
 * site's publishing as Folio runs it: `publishOnNewRevision` (publish on every new primary revision of its spaces:
 * a change-request merge, a git import, …) and `last`, the last publish run: `status` (running, succeeded,
 * failed), `trigger`, `progress` (`done` of `total` pages), `warningCount` and the first 50 `warnings`, `error`,
 * `publicationId`, `startedAt`, `finishedAt`; null before the first run.
 */
export function siteObject(site: SiteRecord, siteSpaces: number, urls: UrlBuilder) {
  const published = site.published && site.livePublicationId !== null;
  return {
    object: 'site' as const,
    id: site.id,
    type: site.type,
    appliedType: site.type,
    title: site.title,
    basename: site.basename,
    visibility: site.visibility,
    defaultLevel: 'inherit' as const,
    permissions: {
      view: true,
      access: true,
      edit: true,
      create: true,
      admin: true,
      installIntegration: false,
      viewAdaptiveSchema: false,
      editAdaptiveSchema: false,
    },
    published: site.published,
    siteSpaces,
    createdAt: iso(site.createdAt)!,
    features: [],
    folioPublishing: { publishOnNewRevision: site.publishOnNewRevision, last: site.publishState },
    urls: {
      location: urls.api(`/orgs/${site.organizationId}/sites/${site.id}`),
      app: urls.app(`/o/${site.organizationId}/sites/${site.id}`),
      preview: publishedSiteUrl(site, urls),
      ...(published ? { published: publishedSiteUrl(site, urls) } : {}),
    },
  };
}

/** The official `SiteSpace` object; `prefix` is its site-relative address when the site has sections (src/publish/site-sections.ts). */
export function siteSpaceObject(site: SiteRecord, siteSpace: SiteSpaceRecord, space: SpaceRecord, facts: SpaceFacts, urls: UrlBuilder, prefix?: string) {
  const isDefault = site.defaultSiteSpaceId === siteSpace.id;
  const published = site.published && site.livePublicationId !== null;
  const address = prefix ?? (isDefault ? '' : `${siteSpace.path}/`);
  return {
    object: 'site-space' as const,
    id: siteSpace.id,
    path: siteSpace.path,
    ...(siteSpace.sectionId !== null ? { section: siteSpace.sectionId } : {}),
    space: spaceObject(space, urls, facts),
    title: space.title ?? siteSpace.path,
    default: isDefault,
    draft: false,
    urls: published ? { published: publishedSiteUrl(site, urls) + address.split('/').map(encodeURIComponent).join('/') } : {},
  };
}

/** The official `ShareLink` object; `urls.published` carries the key. */
export function shareLinkObject(site: SiteRecord, link: ShareLinkRecord, urls: UrlBuilder) {
  return {
    object: 'share-link' as const,
    id: link.id,
    createdAt: iso(link.createdAt)!,
    name: link.name,
    active: link.active,
    urls: { published: `${publishedSiteUrl(site, urls)}?share=${encodeURIComponent(link.key)}` },
  };
}
