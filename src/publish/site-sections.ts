import { siteStructureTree, type SiteSectionGroupRecord, type SiteSectionRecord, type SiteSpaceRecord, type Store } from '../store/index.js';
import type { SectionSwitcher } from './section-switcher.js';

/** A site's sections as the publish run and the API read them (empty lists: a site without sections). */
export interface SiteSectionsModel {
  sections: SiteSectionRecord[];
  groups: SiteSectionGroupRecord[];
}

/**
 * The site-relative address (`''` or `path/…/`) of each site space. Without sections: the default site space at
 * the site's root, the others at their path. With sections: the default section at the site's root, the others at
 * their path; in a section, its default site space at the section's address, the others under it at their path.
 */
export function siteSpacePrefixes(siteSpaces: SiteSpaceRecord[], model: SiteSectionsModel, defaultSiteSpaceId: string | null): Map<string, string> {
  const sections = new Map(model.sections.map((s) => [s.id, s]));
  const out = new Map<string, string>();
  for (const ss of siteSpaces) {
    const section = ss.sectionId !== null ? sections.get(ss.sectionId) : undefined;
    if (!section) {
      out.set(ss.id, ss.id === defaultSiteSpaceId ? '' : `${ss.path}/`);
      continue;
    }
    const base = section.isDefault ? '' : `${section.path}/`;
    out.set(ss.id, section.defaultSiteSpaceId === ss.id ? base : `${base}${ss.path}/`);
  }
  return out;
}

/** The site space served at the site's root: the default section's default, else the site's default, else the first. */
export function rootSiteSpace(siteSpaces: SiteSpaceRecord[], model: SiteSectionsModel, defaultSiteSpaceId: string | null): string | undefined {
  const fromSection = model.sections.find((s) => s.isDefault)?.defaultSiteSpaceId;
  return fromSection ?? defaultSiteSpaceId ?? siteSpaces[0]?.id;
}

/** The site spaces that have pages in the publication: id → site-relative address and title. */
export type PublishedSpaces = ReadonlyMap<string, { href: string; title: string }>;

/** The publish run's view of a site's sections: addresses of its site spaces and the switcher of each page. */
export interface SectionLayout {
  /** The root site space's id. */
  defaultId: string | undefined;
  prefixOf(siteSpaceId: string, path: string): string;
  /** What a page's switcher shows (undefined on a site without sections); `published` are the site spaces with pages. */
  switcher(current: string | null, published: PublishedSpaces): SectionSwitcher | undefined;
}

export async function sectionLayout(store: Store, defaultSiteSpaceId: string | null, siteId: string, siteSpaces: SiteSpaceRecord[]): Promise<SectionLayout> {
  const model = await store.siteSections.structure(siteId);
  const prefixes = siteSpacePrefixes(siteSpaces, model, rootSiteSpace(siteSpaces, model, defaultSiteSpaceId) ?? null);
  return {
    defaultId: rootSiteSpace(siteSpaces, model, defaultSiteSpaceId),
    prefixOf: (id, path) => prefixes.get(id) ?? `${path}/`,
    switcher: (current, published) => (model.sections.length === 0 ? undefined : switcherModel(model, siteSpaces, current, published)),
  };
}

/**
 * The switcher of a page of `current` (a site space id; null on the search page): every section that has a
 * published site space, grouped as the site groups them, linked to its default site space (or its first published
 * one); the current section's site spaces when it has several (its versions, languages).
 */
export function switcherModel(model: SiteSectionsModel, siteSpaces: SiteSpaceRecord[], current: string | null, published: PublishedSpaces): SectionSwitcher {
  const currentSection = siteSpaces.find((ss) => ss.id === current)?.sectionId ?? null;
  const spacesOf = (section: SiteSectionRecord) => siteSpaces.filter((ss) => ss.sectionId === section.id && published.has(ss.id));
  const entry = (section: SiteSectionRecord) => {
    const list = spacesOf(section);
    const target = list.find((ss) => ss.id === section.defaultSiteSpaceId) ?? list[0];
    return target ? [{ title: section.title, href: published.get(target.id)!.href, current: section.id === currentSection }] : [];
  };
  const items = siteStructureTree(model.sections, model.groups).flatMap((e): SectionSwitcher['items'] => {
    if (e.kind === 'section') return entry(e.section).map((link) => ({ kind: 'section' as const, ...link }));
    const links = e.sections.flatMap(entry);
    return links.length > 0 ? [{ kind: 'group' as const, title: e.group.title, links }] : [];
  });
  const section = model.sections.find((s) => s.id === currentSection);
  const variants = section ? spacesOf(section) : [];
  return {
    items,
    variants: variants.length > 1 ? variants.map((ss) => ({ ...published.get(ss.id)!, current: ss.id === current })) : [],
  };
}
