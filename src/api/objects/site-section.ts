import type { SiteRecord, SiteSectionGroupRecord, SiteSectionRecord } from '../../store/index.js';
import { publishedSiteUrl, type siteSpaceObject } from './site.js';
import type { UrlBuilder } from './urls.js';

type SiteSpaceBody = ReturnType<typeof siteSpaceObject>;

/** The official `SiteSection` object: its site spaces are the caller's bodies (those it may see). */
export function siteSectionObject(site: SiteRecord, section: SiteSectionRecord, siteSpaces: SiteSpaceBody[], urls: UrlBuilder) {
  const published = site.published && site.livePublicationId !== null;
  return {
    object: 'site-section' as const,
    id: section.id,
    title: section.title,
    ...(section.description !== null ? { description: section.description } : {}),
    default: section.isDefault,
    draft: false,
    path: section.path,
    ...(section.condition !== null ? { condition: section.condition } : {}),
    ...(section.groupId !== null ? { sectionGroup: section.groupId } : {}),
    siteSpaces,
    urls: published ? { published: publishedSiteUrl(site, urls) + (section.isDefault ? '' : `${encodeURIComponent(section.path)}/`) } : {},
    ...(section.icon !== null ? { icon: section.icon } : {}),
  };
}

export type SiteSectionBody = ReturnType<typeof siteSectionObject>;

/** The official `SiteSectionGroup` object: `sections` (deprecated) and `children` both list its sections. */
export function siteSectionGroupObject(group: SiteSectionGroupRecord, sections: SiteSectionBody[]) {
  return {
    object: 'site-section-group' as const,
    id: group.id,
    title: group.title,
    draft: false,
    sections,
    children: sections,
    ...(group.icon !== null ? { icon: group.icon } : {}),
  };
}
