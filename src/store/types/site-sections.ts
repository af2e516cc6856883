/** A section of a site: a part of its content (a product, a guide, a language) with its own site spaces (variants). */
export interface SiteSectionRecord {
  id: string;
  siteId: string;
  /** The group the section is listed under, or null at the site's top level. */
  groupId: string | null;
  title: string;
  description: string | null;
  icon: string | null;
  /** One URL path segment: the section is served at `<site>/<path>/` (the default section at the site's root). */
  path: string;
  condition: string | null;
  isDefault: boolean;
  /** The site space served at the section's path: the one set, else the section's oldest; null when it has none. */
  defaultSiteSpaceId: string | null;
  /** The order of sections and groups on the site (one sequence for both). */
  position: number;
}

export interface SiteSectionGroupRecord {
  id: string;
  siteId: string;
  title: string;
  icon: string | null;
  position: number;
}

/** A site's sections and groups, each in the site's order. */
export interface SiteSectionsOfSite {
  sections: SiteSectionRecord[];
  groups: SiteSectionGroupRecord[];
}

export interface SiteSectionPatch {
  title?: string;
  path?: string;
  defaultSiteSpaceId?: string;
  /** null removes it. */
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
}

/** Where a section or group goes: before or after a section (or a group); neither is the end of the site. */
export interface SiteStructurePosition {
  before?: { type: 'site-section' | 'site-section-group'; id: string };
  after?: { type: 'site-section' | 'site-section-group'; id: string };
}

/**
 * Site sections and section groups. Every call names the organization and the site: a site of another
 * organization, or a section or group of another site, is a NotFoundError. Limits break with a ValidationError, a
 * path already used on the site with a ConflictError.
 */
export interface SiteSectionStore {
  structure(siteId: string): Promise<SiteSectionsOfSite>;
  /**
   * A new section holding a new site space of `spaceId` (of the site's organization). The site's first section
   * becomes its default; the site spaces the site had before it are moved into a section of their own (the
   * default one, named after the default site space's space) so that no site space is left outside a section.
   */
  createSection(organizationId: string, siteId: string, input: { spaceId: string; title?: string; icon?: string }): Promise<SiteSectionRecord>;
  updateSection(organizationId: string, siteId: string, sectionId: string, patch: SiteSectionPatch): Promise<SiteSectionRecord>;
  /** Deletes the section and its site spaces; the next section becomes the default when it was. False when there was none. */
  deleteSection(organizationId: string, siteId: string, sectionId: string): Promise<boolean>;
  moveSection(organizationId: string, siteId: string, sectionId: string, position: SiteStructurePosition | undefined): Promise<SiteSectionRecord>;
  /** Makes the section the site's default (and its default site space the site's). */
  setDefaultSection(organizationId: string, siteId: string, sectionId: string): Promise<void>;
  createGroup(organizationId: string, siteId: string, input: { title: string; icon?: string | null; sections?: string[] }): Promise<SiteSectionGroupRecord>;
  updateGroup(organizationId: string, siteId: string, groupId: string, patch: { title?: string; icon?: string | null }): Promise<SiteSectionGroupRecord>;
  /** Deletes the group; its sections stay, at the site's top level where the group was. False when there was none. */
  deleteGroup(organizationId: string, siteId: string, groupId: string): Promise<boolean>;
  addSectionToGroup(organizationId: string, siteId: string, groupId: string, sectionId: string): Promise<SiteSectionGroupRecord>;
  /** The section goes back to the top level, just after the group. False when it was not in the group. */
  removeSectionFromGroup(organizationId: string, siteId: string, groupId: string, sectionId: string): Promise<boolean>;
  moveGroup(organizationId: string, siteId: string, groupId: string, position: SiteStructurePosition | undefined): Promise<SiteSectionGroupRecord>;
}
