import type { CountedPage, PageOptions } from './common.js';

/** A JSON object as stored (validated by the API before it is stored). */
type JsonObject = Record<string, unknown>;

export interface StoredCustomization {
  settings: JsonObject;
  updatedAt: Date;
}

export interface SiteRedirectRecord {
  id: string;
  siteId: string;
  /** A path of the published site (`/old/page`, `/old/*`). */
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  /** The official `SiteRedirectDestination` (site-page, site-space, site-section or external). */
  destination: JsonObject;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface SiteRedirectInput {
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: JsonObject;
}

export interface CustomHostnameRecord {
  hostname: string;
  organizationId: string;
  siteId: string;
  createdAt: Date;
}

/**
 * A site's customization, its site spaces' overrides and its redirects (`site_customizations`,
 * `site_space_customizations`, `site_redirects`). Every member takes the site's id: callers load the site of the
 * organization first (another organization's site is absent before these are reached).
 */
export interface SiteSettingsStore {
  customization(siteId: string): Promise<StoredCustomization | null>;
  putCustomization(siteId: string, settings: JsonObject): Promise<StoredCustomization>;
  /** The overrides of a site space of the site (null: none). */
  siteSpaceCustomization(siteId: string, siteSpaceId: string): Promise<StoredCustomization | null>;
  putSiteSpaceCustomization(siteId: string, siteSpaceId: string, overrides: JsonObject): Promise<StoredCustomization>;
  /** Every site space's overrides of the site (site space id → overrides). */
  siteSpaceCustomizations(siteId: string): Promise<Map<string, JsonObject>>;

  listRedirects(siteId: string, options: PageOptions & { draft?: boolean; search?: string }): Promise<CountedPage<SiteRedirectRecord>>;
  redirect(siteId: string, id: string): Promise<SiteRedirectRecord | null>;
  redirectBySource(siteId: string, source: string, draft: boolean): Promise<SiteRedirectRecord | null>;
  /** The live redirects of the site, at most `limit` (the published site matches a path against them). */
  liveRedirects(siteId: string, limit: number): Promise<SiteRedirectRecord[]>;
  /** ConflictError when the site has a redirect from that source (live or draft alike) already. */
  createRedirect(siteId: string, input: SiteRedirectInput): Promise<SiteRedirectRecord>;
  /** NotFoundError when absent; ConflictError when the new source is taken. */
  updateRedirect(siteId: string, id: string, patch: Partial<SiteRedirectInput>): Promise<SiteRedirectRecord>;
  /** Whether it existed. */
  deleteRedirect(siteId: string, id: string): Promise<boolean>;

  /** The custom hostname, whichever organization holds it (the serving of sites needs it; the API scopes it). */
  customHostname(hostname: string): Promise<CustomHostnameRecord | null>;
  /**
   * Points the hostname at a site of the organization (`created`: it was free). ConflictError, naming nothing of
   * the holder, when another organization holds it.
   */
  setCustomHostname(organizationId: string, hostname: string, siteId: string): Promise<{ record: CustomHostnameRecord; created: boolean }>;
  /** Whether the organization held it (another organization's is left alone and answers false). */
  deleteCustomHostname(organizationId: string, hostname: string): Promise<boolean>;
}
