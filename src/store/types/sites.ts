import type { CountedPage, PageOptions } from './common.js';

export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export interface SiteRecord {
  id: string;
  organizationId: string;
  title: string;
  type: string;
  visibility: SiteVisibility;
  /** One URL path segment, unique on this server: the site is served at `/sites/<basename>/`. */
  basename: string;
  published: boolean;
  defaultSiteSpaceId: string | null;
  /** The publication served now (null before the first publish run ends). */
  livePublicationId: string | null;
  /** Publish again on every new primary revision of one of its spaces (a change-request merge, a git import, …). */
  publishOnNewRevision: boolean;
  /** The last publish run as the publish workflow recorded it; null before the first. */
  publishState: SitePublishState | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SitePublishWarning {
  code: string;
  message: string;
  path?: string;
}

/** A publish run of a site, as it goes and once done. */
export interface SitePublishState {
  status: 'running' | 'succeeded' | 'failed';
  /** What asked for it: the API (`POST …/publish`) or a new primary revision of the space named. */
  trigger: { kind: 'request' } | { kind: 'new-revision'; spaceId: string; revisionId: string };
  /** Pages rendered so far, of how many. */
  progress: { done: number; total: number } | null;
  warningCount: number;
  /** The first 50 warnings. */
  warnings: SitePublishWarning[];
  error: { code: string; message: string } | null;
  publicationId: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface SiteCreateInput {
  title: string;
  type?: string;
  visibility?: string;
  basename?: string;
  /** Spaces of the same organization to add as site spaces. */
  spaces?: string[];
}

export interface SitePatch {
  title?: string;
  visibility?: string;
  basename?: string;
  published?: boolean;
  defaultSiteSpaceId?: string;
  publishOnNewRevision?: boolean;
}

export interface SiteSpaceRecord {
  id: string;
  siteId: string;
  spaceId: string;
  path: string;
  /** The site section it belongs to (null on a site without sections). */
  sectionId: string | null;
  createdAt: Date;
}

export interface ShareLinkRecord {
  id: string;
  siteId: string;
  name: string;
  /** The secret of the link (`?share=<key>`). */
  key: string;
  active: boolean;
  createdAt: Date;
}

/** One site space as a publication froze it. */
export interface PublishedSiteSpace {
  siteSpaceId: string;
  spaceId: string;
  path: string;
  revisionId: string | null;
  title: string;
  default: boolean;
  /** Its site-relative address (`''` or `path/…/`); absent in publications made before site sections. */
  prefix?: string;
}

export interface PublicationStructure {
  siteSpaces: PublishedSiteSpace[];
  /** `.gitbook.yaml` redirects: site-relative old path → site-relative page address. */
  redirects?: Record<string, string>;
}

/** One output file of a publication: path → content-addressed blob, with the key of its inputs. */
export interface PublicationFile {
  path: string;
  hash: string;
  contentType: string;
  inputKey: string;
  /** What the rendering read beyond its key (file and spec hashes), checked before reuse. */
  deps?: Record<string, string>;
}

export interface PublicationInput {
  siteId: string;
  /** Same key (per site) → same publication (a retried activity creates none). */
  requestKey: string;
  structure: PublicationStructure;
  /** Every file of the publication. */
  files: PublicationFile[];
  /**
   * A full publication of the site and its files (`publicationLayers(live).base`): when few files differ from it,
   * only those are stored (with a row without a blob for each of its paths the publication drops).
   */
  base?: { publicationId: string; files: PublicationFile[] };
  rendered: number;
  reused: number;
}

/** A publication's files, and the full publication a next one may be stored against. */
export interface PublicationLayers {
  files: PublicationFile[];
  /** The publication's base, or the publication itself when it is stored whole, with its files. */
  base: { publicationId: string; files: PublicationFile[] };
}

export interface PublicationRecord {
  id: string;
  siteId: string;
  requestKey: string;
  structure: PublicationStructure;
  rendered: number;
  reused: number;
  createdAt: Date;
}

/** Sites, site spaces, share links and publications. Every site lookup of the API is scoped by organization. */
export interface SiteStore {
  /** NotFoundError for an unknown organization or space; ConflictError when the basename is taken. */
  create(organizationId: string, input: SiteCreateInput): Promise<SiteRecord>;
  get(organizationId: string, id: string): Promise<SiteRecord | null>;
  /** The serving side: a site by its basename, whatever its organization. */
  getByBasename(basename: string): Promise<SiteRecord | null>;
  list(organizationId: string, options: PageOptions & { published?: boolean; spaceId?: string; title?: string }): Promise<CountedPage<SiteRecord>>;
  update(organizationId: string, id: string, patch: SitePatch): Promise<SiteRecord>;
  delete(organizationId: string, id: string): Promise<boolean>;
  countSiteSpaces(siteId: string): Promise<number>;
  /** Oldest first. */
  listSiteSpaces(siteId: string): Promise<SiteSpaceRecord[]>;
  /** Into `sectionId` (a section of the site), else the default section when the site has sections. */
  addSiteSpace(organizationId: string, siteId: string, input: { spaceId: string; path?: string; sectionId?: string }): Promise<SiteSpaceRecord>;
  updateSiteSpace(organizationId: string, siteId: string, siteSpaceId: string, patch: { path?: string; spaceId?: string }): Promise<SiteSpaceRecord>;
  deleteSiteSpace(organizationId: string, siteId: string, siteSpaceId: string): Promise<boolean>;
  listShareLinks(siteId: string, options: PageOptions): Promise<CountedPage<ShareLinkRecord>>;
  createShareLink(siteId: string, name: string): Promise<ShareLinkRecord>;
  updateShareLink(siteId: string, id: string, patch: { name?: string; active?: boolean }): Promise<ShareLinkRecord>;
  deleteShareLink(siteId: string, id: string): Promise<boolean>;
  shareLinkByKey(siteId: string, key: string): Promise<ShareLinkRecord | null>;
  /**
   * Stores a complete publication (files first, in one transaction); idempotent by `requestKey`. With a `base`, only
   * the files that differ from it are written when they are few (a re-publish); the publication reads the same.
   * `against`: the base it was stored against (null: stored whole, or not created by this call).
   */
  createPublication(input: PublicationInput): Promise<{ publication: PublicationRecord; created: boolean; against: string | null }>;
  /** Switches the live pointer (one UPDATE), records `site_published` when it moved, and drops publications older than the last `keep` (default 3). */
  goLive(siteId: string, publicationId: string, options?: { keep?: number; warningCount?: number }): Promise<void>;
  unpublish(organizationId: string, siteId: string): Promise<SiteRecord>;
  /** Records the state of the site's publish run (replaces the last one). */
  setPublishState(siteId: string, state: SitePublishState): Promise<void>;
  /** The published sites that publish on a new primary revision of `spaceId`. */
  publishingOnNewRevision(spaceId: string): Promise<Array<{ id: string; organizationId: string }>>;
  publication(siteId: string, publicationId: string): Promise<PublicationRecord | null>;
  /** Every file of the publication (its own over its base's), by path. */
  publicationFiles(publicationId: string): Promise<PublicationFile[]>;
  /** Its files, and the full publication a next publication of the site may be stored against. */
  publicationLayers(publicationId: string): Promise<PublicationLayers>;
  publicationFile(publicationId: string, path: string): Promise<{ hash: string; contentType: string } | null>;
}
