/**
 * The public types of Folio's content store. Everything the rest of Folio (API, activities, CLI) needs
 * from the store is described here; `openStore` in ./index.ts builds a `Store`.
 */
import type { Logger } from '../log.js';
import type { OpenApiErrorCode, SpecProblem } from '../openapi/errors.js';
import type { SpecSourceInput, SpecVisibility } from '../openapi/input.js';
import type { ProcessSpecSuccess, SpecInfo, SpecSource } from '../openapi/process.js';
import type { AuditStore, InviteStore, MemberStore, PermissionStore, SamlStore, TeamStore, UserStore } from './people-types.js';

export type * from './people-types.js';

// ---------------------------------------------------------------------------------------------------
// SQL access: one dialect (PostgreSQL), two adapters (in-process PGlite, pg Pool).
// ---------------------------------------------------------------------------------------------------

/** A value that may be passed as a query parameter. Objects must be JSON.stringify'd and cast (`$1::jsonb`). */
export type SqlParam = string | number | boolean | null | Date | Uint8Array | string[] | number[];

export interface Sql {
  /** Which adapter runs the queries. */
  readonly dialect: 'pglite' | 'pg';
  /** Runs one parameterised statement and returns its rows (column names as written in SQL). */
  query<T = Record<string, unknown>>(text: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /**
   * Runs `fn` in a transaction on one connection: committed when it resolves, rolled back when it throws.
   * Inside a transaction, `tx.transaction(fn)` runs `fn` in the same transaction (no savepoint).
   * Inside `fn`, use only `tx`: a query on the root `Sql` waits for the transaction to end on PGlite
   * (one session) and through a pglite-server, so it would never return.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Closes the pool / the embedded database. Only on the root `Sql`. */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Migrations
// ---------------------------------------------------------------------------------------------------

/** One numbered migration: `id` like `001_core` (ordered by id), `sql` a script run in one transaction. */
export interface Migration {
  id: string;
  sql: string;
}

// ---------------------------------------------------------------------------------------------------
// Blobs (content-addressed, sha256 hex)
// ---------------------------------------------------------------------------------------------------

export type BlobStoreOptions = { kind: 'database' } | { kind: 'directory'; dir: string };

export interface BlobStore {
  readonly kind: 'database' | 'directory';
  /**
   * Stores the bytes (once) and returns their sha256 hex. Idempotent. The blob is pinned for
   * `pinMs` (default one hour) so garbage collection keeps it until a revision references it.
   */
  put(bytes: Uint8Array, options?: { pinMs?: number }): Promise<string>;
  /** Stores many; returns their hashes in input order. */
  putMany(items: readonly Uint8Array[], options?: { pinMs?: number }): Promise<string[]>;
  /** The bytes, or null when no such blob is stored. */
  get(hash: string): Promise<Uint8Array | null>;
  /** The bytes of many blobs in one query (hash → bytes); hashes not stored are absent from the map. */
  getMany(hashes: readonly string[]): Promise<Map<string, Uint8Array>>;
  /** The subset of `hashes` that is stored. */
  has(hashes: readonly string[]): Promise<Set<string>>;
  /** Deletes the unpinned blobs referenced by no row of any table with a foreign key to `blobs(hash)`. */
  deleteUnreferenced(): Promise<{ deleted: number }>;
}

// ---------------------------------------------------------------------------------------------------
// Records (rows, camelCase). Timestamps are Dates.
// ---------------------------------------------------------------------------------------------------

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A page of a list. `next.page` is an opaque cursor to pass back as `page`. */
export interface Paginated<T> {
  items: T[];
  next?: { page: string };
}

/** A page of a list that also counts the whole list (every page): the API's `count`. */
export interface CountedPage<T> extends Paginated<T> {
  total: number;
}

export interface PageOptions {
  /** 1..1000 */
  limit: number;
  /** Opaque cursor from a previous `next.page`. */
  page?: string;
}

export interface OrganizationRecord {
  id: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
}

/** `read`: GET/HEAD only; `write`: everything in its organization. */
export type TokenScope = 'read' | 'write';

/** An API token as listed: never its secret (only its sha256 is stored). */
export interface TokenRecord {
  id: string;
  organizationId: string;
  label: string | null;
  scope: TokenScope;
  createdAt: Date;
  /** null: never expires. */
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Updated at most once a minute; null when never used. */
  lastUsedAt: Date | null;
  /** The user a personal token acts for; null: the organization's service token. */
  userId: string | null;
}

export interface TokenCreateOptions {
  /** An explicit token (bootstrap); generated when absent. */
  token?: string;
  label?: string;
  /** Default `write`. */
  scope?: TokenScope;
  /** Must be in the future; absent or null: never expires. */
  expiresAt?: Date | null;
  /** A personal token of this user (who must be a member of the organization); absent: a service token. */
  userId?: string;
}

/** Who a verified token speaks for. */
export interface VerifiedToken {
  orgId: string;
  tokenId: string;
  scope: TokenScope;
  /** The user of a personal token; null for a service token. */
  userId: string | null;
}

export type EditMode = 'live' | 'locked';
export type SpaceVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

export interface SpaceRecord {
  id: string;
  organizationId: string;
  title: string | null;
  emoji: string | null;
  language: string | null;
  editMode: EditMode | null;
  visibility: SpaceVisibility | null;
  /** Parent collection id. */
  parent: string | null;
  /** The primary (active) revision. */
  revisionId: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  /** Identifies one deletion: a purge only proceeds if the space is still deleted by that deletion. */
  deletionId: string | null;
  /** The official `DefaultLevel`: `inherit`, a member role, or null (guests). */
  defaultLevel: SpaceDefaultLevel | null;
}

export type SpaceDefaultLevel = 'inherit' | 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read';

export interface SpaceCreateInput {
  /** URL-safe id (`[A-Za-z0-9_-]{1,64}`); generated when absent. */
  id?: string;
  title?: string;
  emoji?: string;
  language?: string;
  editMode?: EditMode;
  visibility?: SpaceVisibility | string;
  parent?: string;
}

export type SpacePatch = Partial<Pick<SpaceRecord, 'title' | 'emoji' | 'language' | 'editMode' | 'visibility' | 'parent' | 'defaultLevel'>>;

export interface RevisionGit {
  oid: string;
  message?: string;
  ref?: string;
  url?: string;
  createdByService?: boolean;
}

/** A page as given to `revisions.create`. */
export interface PageInput {
  /** Stable page id (unique within the revision). */
  id: string;
  kind: 'document' | 'group' | 'link';
  title: string;
  slug?: string;
  path?: string;
  /** Every other page field of the converter's model. */
  data?: JsonObject;
  /** The page markdown: bytes (stored once as a blob) or the hash of a stored blob. */
  body?: Uint8Array | { hash: string };
  children?: PageInput[];
  /**
   * true: the page is the same as the page of this id in the revision input's `base` (its kind, title, slug, path,
   * data and body are copied from there by the database, and the ones given here are not stored); its place in the
   * tree (parent, position, order) is this input's. A page id the base does not hold is refused.
   */
  fromBase?: boolean;
}

/** A stored page, as read back. `children` is filled by `revisions.pages` (the tree) and empty from `page`. */
export interface PageRecord {
  id: string;
  kind: 'document' | 'group' | 'link';
  title: string;
  slug: string | null;
  path: string | null;
  data: JsonObject;
  bodyHash: string | null;
  parentId: string | null;
  /** Index among its siblings. */
  position: number;
  children: PageRecord[];
}

export interface FileGit {
  oid: string;
  path: string;
}

/** A file as given to `revisions.create`. */
export interface FileInput {
  id: string;
  name: string;
  path?: string;
  contentType?: string;
  size: number;
  git?: FileGit;
  data?: JsonObject;
  bytes?: Uint8Array | { hash: string };
  /**
   * true: the file is the same as the file of this id in the revision input's `base` (every field but its position
   * is copied from there by the database; the ones given here are not stored). A file id the base does not hold is
   * refused.
   */
  fromBase?: boolean;
}

export interface FileRecord {
  id: string;
  name: string;
  path: string | null;
  contentType: string | null;
  size: number;
  git: FileGit | null;
  data: JsonObject;
  hash: string | null;
  position: number;
}

export interface RevisionInput {
  spaceId: string;
  parents: string[];
  /** 'edits' | 'merge' | 'git-import' | 'git-export' | 'template' | ... */
  type: string;
  git?: RevisionGit;
  /** Revision-level data: config, redirects, groups... */
  data?: JsonObject;
  pages: PageInput[];
  files: FileInput[];
  /** Same key (per space) → same revision, never a second one. */
  idempotencyKey?: string;
  /**
   * A revision of the same space whose pages and files the input's `fromBase` pages and files are copies of (an
   * incremental import: the unchanged rows are copied inside the database instead of being sent again).
   */
  base?: string;
}

export interface RevisionRecord {
  id: string;
  spaceId: string;
  parents: string[];
  type: string;
  git: RevisionGit | null;
  data: JsonObject;
  idempotencyKey: string | null;
  pageCount: number;
  fileCount: number;
  createdAt: Date;
}

export interface GitSyncRepo {
  /** Never carries credentials (they are stripped on write). */
  url: string;
  ref: string;
  projectDirectory?: string;
  /** The request's `repoTreeURL` / `repoCommitURL`, shown by git/info. */
  treeURL?: string;
  commitURL?: string;
  /** The request's `gitInfo` (provider and repository page), shown by git/info. */
  provider?: string;
  infoURL?: string;
}

export interface GitSyncMark {
  timestamp: string;
  commit: string;
  requestId?: string;
  revisionId?: string;
  /** The repository URL of the request (without credentials). */
  url?: string;
  /** Import: the converter's warnings (see src/gitsync/warnings.ts). */
  warnings?: GitWarningReportJson;
  /**
   * Export: page id → path of the files it wrote for pages whose records do not hold that path (new and moved
   * pages; see src/gitsync/exported-paths.ts). Not shown by git/info.
   */
  exportedPaths?: Record<string, string>;
}

/** The stored form of a `GitWarningReport` (workflows/git-definitions.ts). */
export interface GitWarningReportJson {
  total: number;
  counts: Record<string, number>;
  warnings: Array<{ code: string; severity: string; message: string; path?: string }>;
}

export interface GitSyncOperation {
  state: 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled' | string;
  direction: 'import' | 'export';
  startedAt?: string;
  endedAt?: string;
  requestId?: string;
  error?: { code: string; message: string } | null;
  /** The warnings of the operation that ended (absent: none). */
  warnings?: GitWarningReportJson;
}

export interface GitSyncState {
  spaceId: string;
  repo: GitSyncRepo | null;
  lastImport: GitSyncMark | null;
  lastExport: GitSyncMark | null;
  operation: GitSyncOperation | null;
  /** null when the space never had git sync state. */
  updatedAt: Date | null;
}

/** Keys present replace the stored value wholesale; `null` clears it. */
export interface GitSyncPatch {
  repo?: GitSyncRepo | null;
  lastImport?: GitSyncMark | null;
  lastExport?: GitSyncMark | null;
  operation?: GitSyncOperation | null;
}

/** One entry of the git request log (`git_sync_requests`): a request with its latest status. */
export interface GitRequestLogEntry {
  requestId: string;
  direction: 'import' | 'export';
  timestamp: string;
  /** queued, running, succeeded, noop, failed, timeout, dropped-stale, duplicate */
  status: string;
  code?: string | null;
  message?: string | null;
}

export interface GitRequestLogRow extends GitRequestLogEntry {
  createdAt: Date;
  updatedAt: Date;
}

/** A sealed secret as the vault stores it (`vault_secrets`): the store never sees it in clear. */
export interface VaultEntryInput {
  id: string;
  /** The space the secret was given for: it is only handed out for that space. */
  spaceId: string;
  sealed: Uint8Array;
  expiresAt: Date;
}

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequestRecord {
  id: string;
  spaceId: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  createdBy: string | null;
  /** The change request's current revision. */
  revisionId: string;
  /** The primary revision it was created from (or last updated against). */
  revisionInitial: string;
  mergedRevisionId: string | null;
  /** Who merged it (an API token id); null before the merge, or for merges recorded before this was kept. */
  mergedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  mergedAt: Date | null;
}

export interface ChangeRequestCreateInput {
  spaceId: string;
  subject?: string;
  createdBy?: string;
  revisionId: string;
  status?: ChangeRequestStatus;
}

export type ProcessingState = 'pending' | 'progress' | 'complete';

export type StoredSpecSource = { kind: 'url'; url: string } | { kind: 'text'; textHash: string };

export interface OpenApiSpecRecord {
  id: string;
  organizationId: string;
  slug: string;
  /** A URL source keeps the URL as given (it may carry credentials: strip them before showing it). */
  source: StoredSpecSource;
  processingState: ProcessingState;
  visibility: SpecVisibility;
  lastVersionId: string | null;
  lastProcessedAt: Date | null;
  lastProcessErrorCode: OpenApiErrorCode | null;
  /** Problems of the last run: the errors of a failed run, the warnings of a successful one. */
  lastProcessedErrors: SpecProblem[];
  lastProcessedErrorCount: number;
  /** Failed runs since the last success (pauses the refresh schedule when it grows). */
  consecutiveFailures: number;
  /** Runs started so far (the `n` of `openapi/<specId>/process/<n>`). */
  processRuns: number;
  /** The newest run whose outcome is recorded. */
  appliedRun: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface OpenApiVersionRecord {
  id: string;
  specId: string;
  /** `sha256:…` of the bundled files (see specContentHash). */
  contentHash: string;
  /** Blob holding `{ rootPath, filesystem }` as JSON. */
  contentBlob: string;
  rootPath: string;
  /** Where the root document was fetched from (credentials removed), null for a text source. */
  sourceUrl: string | null;
  info: SpecInfo;
  size: number;
  run: number;
  createdAt: Date;
}

export interface OpenApiVersionContent {
  rootPath: string;
  filesystem: Record<string, string>;
}

export interface RunFailure {
  code: OpenApiErrorCode;
  errors: SpecProblem[];
  errorCount: number;
}

/** A translation run's status; `failed` carries `errorCode` and `errorMessage`. */
export type TranslationRunStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface TranslationRecord {
  id: string;
  organizationId: string;
  sourceSpaceId: string;
  sourceLanguage: string;
  language: string;
  /** The GitBook JSON document of instructions (given to engines that take instructions). */
  instructions: JsonObject | null;
  /** Created by the first run. */
  resultSpaceId: string | null;
  resultRevisionId: string | null;
  status: TranslationRunStatus;
  /** Runs requested so far (the `n` of the latest requested run). */
  runsRequested: number;
  createdAt: Date;
  updatedAt: Date;
}

/** One run: its progress while it runs, its figures once done. */
export interface TranslationRunRecord {
  translationId: string;
  run: number;
  status: TranslationRunStatus;
  engine: string;
  sourceRevisionId: string | null;
  resultRevisionId: string | null;
  pagesTotal: number;
  pagesDone: number;
  segmentsTotal: number;
  segmentsDone: number;
  /** Segments sent to the engine (not found in the memory). */
  segmentsSent: number;
  segmentsFromMemory: number;
  /** Words of the segments sent to the engine. */
  words: number;
  /** Pages with at least one segment sent to the engine. */
  pagesTranslated: number;
  warnings: Array<{ code: string; message: string; pageId?: string }>;
  errorCode: string | null;
  errorMessage: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

export type TranslationRunProgress = Partial<
  Pick<
    TranslationRunRecord,
    | 'engine'
    | 'sourceRevisionId'
    | 'pagesTotal'
    | 'pagesDone'
    | 'segmentsTotal'
    | 'segmentsDone'
    | 'segmentsSent'
    | 'segmentsFromMemory'
    | 'words'
    | 'pagesTranslated'
  >
>;

/** Totals over every finished run of a translation (`stats` of the API object). */
export interface TranslationTotals {
  runs: number;
  totalWords: number;
  totalPages: number;
  totalDurationMs: number;
}

export interface GlossaryEntryRecord {
  id: string;
  organizationId: string;
  /** language code → term */
  translations: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export type GlossaryOperation =
  | { type: 'insert'; translations: Record<string, string> }
  | { type: 'update'; id: string; translations: Record<string, string> }
  | { type: 'delete'; id: string };

/** One translation-memory entry: the target text of a source segment. */
export interface MemoryKey {
  segmentHash: string;
  /** `en:es` */
  languagePair: string;
  /** Fingerprint of the glossary terms found in the segment ('' when none). */
  glossaryVersion: string;
}

/** Translations, their runs, the organization's glossary and the translation memory (migration 009). */
export interface TranslationStore {
  /** NotFoundError for an unknown organization. */
  create(
    organizationId: string,
    input: { sourceSpaceId: string; sourceLanguage: string; language: string; instructions?: JsonObject | null },
  ): Promise<TranslationRecord>;
  get(organizationId: string, id: string): Promise<TranslationRecord | null>;
  /** Oldest first. */
  list(organizationId: string, options: PageOptions): Promise<CountedPage<TranslationRecord>>;
  /** NotFoundError when unknown. */
  setInstructions(organizationId: string, id: string, instructions: JsonObject | null): Promise<TranslationRecord>;
  /** Removes the translation and its runs (the result space stays). false when it did not exist. */
  delete(organizationId: string, id: string): Promise<boolean>;
  /** Counts a requested run and sets the status to `pending` unless a run is running. NotFoundError when unknown. */
  requestRun(organizationId: string, id: string): Promise<TranslationRecord>;
  /** Starts run `run` (idempotent): status `running`, a run row. Returns the row. */
  beginRun(id: string, run: number): Promise<TranslationRunRecord>;
  progress(id: string, run: number, progress: TranslationRunProgress): Promise<void>;
  /** Sets the result space (first run) when none is set yet, or always with `replace`; returns the one set. */
  setResultSpace(id: string, spaceId: string, options?: { replace?: boolean }): Promise<string>;
  /** Records the run as completed with its result revision; the translation points at it. */
  completeRun(id: string, run: number, result: { resultRevisionId: string; warnings: TranslationRunRecord['warnings'] }): Promise<TranslationRunRecord>;
  /** Records a failed run; null when the translation no longer exists (deleted while it ran). */
  failRun(id: string, run: number, error: { code: string; message: string }): Promise<TranslationRunRecord | null>;
  /** The newest run, or null before the first. */
  latestRun(id: string): Promise<TranslationRunRecord | null>;
  getRun(id: string, run: number): Promise<TranslationRunRecord | null>;
  totals(id: string): Promise<TranslationTotals>;
  glossary: {
    /** The organization's glossary version (0 before any change). */
    version(organizationId: string): Promise<number>;
    list(organizationId: string, options: PageOptions): Promise<CountedPage<GlossaryEntryRecord>>;
    /** Every entry (for a run). */
    all(organizationId: string): Promise<GlossaryEntryRecord[]>;
    get(organizationId: string, id: string): Promise<GlossaryEntryRecord | null>;
    /** All operations in one transaction; NotFoundError when an update or delete names an unknown entry. Bumps the version. */
    apply(organizationId: string, operations: readonly GlossaryOperation[]): Promise<{ version: number }>;
  };
  memory: {
    /** The stored targets of the keys found (key string `hash|pair|glossaryVersion` → target). */
    lookup(organizationId: string, keys: readonly MemoryKey[]): Promise<Map<string, string>>;
    /** Stores targets (idempotent: an existing entry is kept). */
    put(organizationId: string, entries: ReadonlyArray<MemoryKey & { target: string; engine: string }>): Promise<void>;
    /** Entries of the organization (tests and operators). */
    count(organizationId: string): Promise<number>;
  };
}

// ---------------------------------------------------------------------------------------------------
// Sites and their publications
// ---------------------------------------------------------------------------------------------------

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
  createdAt: Date;
  updatedAt: Date;
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
}

export interface SiteSpaceRecord {
  id: string;
  siteId: string;
  spaceId: string;
  path: string;
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
  files: PublicationFile[];
  rendered: number;
  reused: number;
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
  addSiteSpace(organizationId: string, siteId: string, input: { spaceId: string; path?: string }): Promise<SiteSpaceRecord>;
  updateSiteSpace(organizationId: string, siteId: string, siteSpaceId: string, patch: { path?: string; spaceId?: string }): Promise<SiteSpaceRecord>;
  deleteSiteSpace(organizationId: string, siteId: string, siteSpaceId: string): Promise<boolean>;
  listShareLinks(siteId: string, options: PageOptions): Promise<CountedPage<ShareLinkRecord>>;
  createShareLink(siteId: string, name: string): Promise<ShareLinkRecord>;
  updateShareLink(siteId: string, id: string, patch: { name?: string; active?: boolean }): Promise<ShareLinkRecord>;
  deleteShareLink(siteId: string, id: string): Promise<boolean>;
  shareLinkByKey(siteId: string, key: string): Promise<ShareLinkRecord | null>;
  /** Stores a complete publication (files first, in one transaction); idempotent by `requestKey`. */
  createPublication(input: PublicationInput): Promise<{ publication: PublicationRecord; created: boolean }>;
  /** Switches the live pointer (one UPDATE) and drops publications older than the last `keep` (default 3). */
  goLive(siteId: string, publicationId: string, options?: { keep?: number }): Promise<void>;
  unpublish(organizationId: string, siteId: string): Promise<SiteRecord>;
  publication(siteId: string, publicationId: string): Promise<PublicationRecord | null>;
  publicationFiles(publicationId: string): Promise<PublicationFile[]>;
  publicationFile(publicationId: string, path: string): Promise<{ hash: string; contentType: string } | null>;
}

// ---------------------------------------------------------------------------------------------------
// The store
// ---------------------------------------------------------------------------------------------------

export interface OpenStoreOptions {
  /** A PostgreSQL URL: use a real server (or a pglite-server) through `pg`. */
  databaseUrl?: string;
  /** PGlite data directory when no databaseUrl; `memory://` for an in-memory database. Default `memory://`. */
  dataDir?: string;
  /** Default `{ kind: 'database' }`. */
  blobs?: BlobStoreOptions;
  /** Apply pending migrations on open. Default true. */
  migrate?: boolean;
  logger?: Logger;
  /**
   * A dumped PGlite data directory (`PGlite.dumpDataDir()`) to start a new PGlite database from instead of
   * running initdb: tests use one template per run. Ignored with `databaseUrl` or an existing data directory.
   */
  pgliteTemplate?: Blob;
  /** pg pool size (default 10). Use a small pool (e.g. 2–4) against a pglite-server. */
  poolSize?: number;
}

export interface OrgStore {
  /** ConflictError (`CONFLICT`) when `id` is taken. */
  create(input: { id?: string; title: string }): Promise<OrganizationRecord>;
  /** Creates it unless it exists; returns the stored one either way. */
  ensure(input: { id: string; title: string }): Promise<OrganizationRecord>;
  get(id: string): Promise<OrganizationRecord | null>;
  list(options: PageOptions): Promise<Paginated<OrganizationRecord>>;
}

export interface TokenStore {
  /**
   * Creates an API token for the organization and returns it in clear (only the sha256 is stored).
   * With an explicit `token` it is idempotent: the same token for the same org returns the same id;
   * a token already held by another organization is a ConflictError.
   */
  create(organizationId: string, options?: TokenCreateOptions): Promise<{ id: string; token: string; record: TokenRecord }>;
  /**
   * The owner and scope of a valid token (not revoked, not expired), or null. Never cached: a token revoked
   * a moment ago is refused by the next call.
   */
  verify(token: string): Promise<VerifiedToken | null>;
  /** Tokens that are neither revoked nor expired. */
  count(organizationId?: string): Promise<number>;
  /** Every token of the organization (revoked and expired ones too), oldest first; only one user's with `userId`. */
  list(organizationId: string, options?: { userId?: string }): Promise<TokenRecord[]>;
  get(organizationId: string, tokenId: string): Promise<TokenRecord | null>;
  /** Idempotent (a revoked token keeps its first revocation time). NotFoundError when the org has no such token. */
  revoke(organizationId: string, tokenId: string): Promise<TokenRecord>;
}

export interface SpaceStore {
  /** NotFoundError when the org is unknown; ConflictError when `id` is taken. */
  create(organizationId: string, input?: SpaceCreateInput): Promise<SpaceRecord>;
  /** null when unknown (or purged), or deleted unless `includeDeleted`. */
  get(id: string, options?: { includeDeleted?: boolean }): Promise<SpaceRecord | null>;
  /** Oldest first. Deleted spaces only with `includeDeleted`. */
  list(organizationId: string, options: PageOptions & { includeDeleted?: boolean }): Promise<CountedPage<SpaceRecord>>;
  /** NotFoundError when unknown or deleted. */
  update(id: string, patch: SpacePatch): Promise<SpaceRecord>;
  /** Idempotent: a space already deleted returns its current deletion. */
  markDeleted(id: string): Promise<{ deletionId: string; deletedAt: Date }>;
  /** Idempotent for a space that is not deleted. ConflictError when `deletionId` is given and differs. */
  restore(id: string, deletionId?: string): Promise<SpaceRecord>;
  /**
   * Removes the space with its revisions, pages, files, git sync state and the blobs no other revision uses,
   * only if it is still deleted by `deletionId` (ConflictError otherwise). `purged: false` when already gone.
   */
  purge(id: string, deletionId: string): Promise<{ purged: boolean; revisions: number; blobsDeleted: number }>;
  /**
   * Sets the primary revision. With `expected` (a revision id, or null for "none yet") it is a
   * compare-and-set: ConflictError when the current one differs. The revision must belong to the space.
   */
  setPrimaryRevision(id: string, revisionId: string, options?: { expected?: string | null }): Promise<SpaceRecord>;
}

export interface RevisionStore {
  /** One transaction. With an `idempotencyKey`, a second call returns the first revision (`created: false`). */
  create(input: RevisionInput): Promise<{ id: string; created: boolean }>;
  get(id: string): Promise<RevisionRecord | null>;
  /** The page tree (roots in order, each with `children`). NotFoundError when the revision is unknown. */
  pages(revisionId: string): Promise<PageRecord[]>;
  page(revisionId: string, pageId: string): Promise<PageRecord | null>;
  pageBody(revisionId: string, pageId: string): Promise<Uint8Array | null>;
  /** In the order given at creation. NotFoundError when the revision is unknown. */
  files(revisionId: string): Promise<FileRecord[]>;
  file(revisionId: string, fileId: string): Promise<FileRecord | null>;
  fileBytes(revisionId: string, fileId: string): Promise<Uint8Array | null>;
  /** Newest first. */
  listForSpace(spaceId: string, options: PageOptions): Promise<Paginated<RevisionRecord>>;
}

export interface GitSyncStore {
  get(spaceId: string): Promise<GitSyncState>;
  /**
   * Merges `patch` (top-level keys replaced). With `ifOperationState` it is a compare-and-set on
   * `operation.state` (null = no operation): ConflictError when it differs. NotFoundError for an unknown space.
   */
  update(spaceId: string, patch: GitSyncPatch, options?: { ifOperationState?: string | null }): Promise<GitSyncState>;
}

/** The git request log (`git_sync_requests`), so operators see dropped requests too. */
export interface GitRequestLogStore {
  /**
   * Inserts or updates the request's row; `duplicate` and `queued` never overwrite the status of a request
   * already logged. NotFoundError when the space is gone.
   */
  record(spaceId: string, entry: GitRequestLogEntry): Promise<void>;
  /** Most recently updated first. */
  list(spaceId: string, limit?: number): Promise<GitRequestLogRow[]>;
}

/** The rows of the secret vault (src/vault/ seals and opens them; the store only keeps bytes). */
export interface VaultStore {
  /** NotFoundError when the space is unknown. */
  insert(entry: VaultEntryInput): Promise<void>;
  /** The sealed bytes of an unexpired entry given for `spaceId`, or null. */
  sealed(id: string, spaceId: string): Promise<Uint8Array | null>;
  /** Idempotent. */
  delete(id: string): Promise<void>;
  /** Removes expired entries; returns how many. */
  deleteExpired(): Promise<number>;
}

/** Change requests (`change_requests`), numbered per space. */
export interface ChangeRequestStore {
  /** NotFoundError when the space is unknown or deleted. */
  create(input: ChangeRequestCreateInput): Promise<ChangeRequestRecord>;
  /** By id, or by number (`"12"`) when no change request of the space has that id. */
  get(spaceId: string, id: string): Promise<ChangeRequestRecord | null>;
  byMergedRevision(revisionId: string): Promise<ChangeRequestRecord | null>;
  /** Oldest first; `total` counts the whole list. */
  list(spaceId: string, options: { limit: number; page?: string; status?: ChangeRequestStatus }): Promise<CountedPage<ChangeRequestRecord>>;
  /** Per space: every change request, the open ones, the drafts (0 for a space without any). */
  counts(spaceIds: string[]): Promise<Map<string, { total: number; open: number; draft: number }>>;
  /** NotFoundError when unknown. */
  update(spaceId: string, id: string, patch: { subject?: string; status?: ChangeRequestStatus }): Promise<ChangeRequestRecord>;
  /** Compare-and-set of the change request's revision (ConflictError when another edit landed first, or it was merged). */
  setRevision(id: string, revisionId: string, expected: string, options?: { revisionInitial?: string }): Promise<ChangeRequestRecord>;
  /** NotFoundError when unknown. */
  markMerged(id: string, mergedRevisionId: string, mergedBy?: string | null): Promise<ChangeRequestRecord>;
}

/** OpenAPI specifications and their versions; a version's files are one blob, never rows. */
export interface OpenApiStore {
  /** ConflictError when the slug is taken in the organization; NotFoundError for an unknown organization. */
  create(organizationId: string, input: { id?: string; slug: string; source: SpecSourceInput; visibility?: SpecVisibility }): Promise<OpenApiSpecRecord>;
  get(id: string): Promise<OpenApiSpecRecord | null>;
  getBySlug(organizationId: string, slug: string): Promise<OpenApiSpecRecord | null>;
  /** Oldest first. */
  list(organizationId: string, options: PageOptions): Promise<CountedPage<OpenApiSpecRecord>>;
  /** Replaces the source; `changed` tells whether it differs from the stored one. NotFoundError when unknown. */
  setSource(id: string, source: SpecSourceInput): Promise<{ spec: OpenApiSpecRecord; changed: boolean }>;
  setVisibility(id: string, visibility: SpecVisibility): Promise<OpenApiSpecRecord>;
  /** Removes the spec and its versions (their blobs become garbage). false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /** The source in the form processSpec takes (reads a text source's blob). */
  sourceOf(spec: OpenApiSpecRecord): Promise<SpecSource>;
  /** Numbers a new processing run and sets the state to `pending`. */
  startRun(id: string): Promise<{ spec: OpenApiSpecRecord; run: number }>;
  /**
   * Gives up a run that was numbered but never started (the workflow service refused it): it counts as
   * recorded, so its number is never reused and a late result of it is ignored; the state goes back to
   * `complete` when an earlier run was recorded (otherwise it stays `pending`). A no-op for an older run.
   */
  abandonRun(id: string, run: number): Promise<OpenApiSpecRecord>;
  /** `progress`, unless a newer run's outcome is already recorded. */
  markProgress(id: string, run: number): Promise<OpenApiSpecRecord>;
  /**
   * Records a successful run: a new version only when the content hash differs from the last version's
   * (so an unchanged re-fetch, or a retried activity, creates none); clears the error code; keeps the
   * run's warnings as `lastProcessedErrors`. Ignored (`applied: false`) when a newer run is already recorded.
   */
  recordSuccess(
    id: string,
    run: number,
    result: Pick<ProcessSpecSuccess, 'hash' | 'rootPath' | 'filesystem' | 'url' | 'info' | 'warnings' | 'warningCount'>,
  ): Promise<{ spec: OpenApiSpecRecord; version: OpenApiVersionRecord | null; created: boolean; applied: boolean }>;
  /** Records a failed run: the code and errors are set, the last version stays. Ignored when a newer run is recorded. */
  recordFailure(id: string, run: number, failure: RunFailure): Promise<{ spec: OpenApiSpecRecord; applied: boolean }>;
  /** Newest first. */
  listVersions(specId: string, options: PageOptions): Promise<CountedPage<OpenApiVersionRecord>>;
  getVersion(specId: string, versionId: string): Promise<OpenApiVersionRecord | null>;
  latestVersion(specId: string): Promise<OpenApiVersionRecord | null>;
  versionContent(version: OpenApiVersionRecord): Promise<OpenApiVersionContent>;
}

/** The content store. Its SQL connection stays inside src/store/ (tests reach it through ./raw-sql.ts). */
/** How a space marked as a template of its organization is presented (its title and emoji are the space's). */
export interface SpaceTemplateRecord {
  spaceId: string;
  organizationId: string;
  subtitle: string | null;
  features: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface SpaceTemplateInput {
  subtitle?: string | null;
  features?: string[];
}

export interface SpaceTemplateStore {
  /** Marks (or updates) a space of the organization as a template. NotFoundError when the space is not the organization's. */
  mark(organizationId: string, spaceId: string, input?: SpaceTemplateInput): Promise<SpaceTemplateRecord>;
  /** false when the space was not a template. */
  unmark(organizationId: string, spaceId: string): Promise<boolean>;
  get(organizationId: string, spaceId: string): Promise<SpaceTemplateRecord | null>;
  /** The organization's template spaces (not deleted), oldest first. */
  list(organizationId: string): Promise<SpaceTemplateRecord[]>;
}

export interface Store {
  blobs: BlobStore;
  migrate(): Promise<{ applied: string[] }>;
  /** Throws (StoreUnavailableError) when the database does not answer. */
  health(): Promise<void>;
  close(): Promise<void>;
  orgs: OrgStore;
  tokens: TokenStore;
  spaces: SpaceStore;
  revisions: RevisionStore;
  gitSync: GitSyncStore;
  gitRequests: GitRequestLogStore;
  vault: VaultStore;
  changeRequests: ChangeRequestStore;
  openapi: OpenApiStore;
  translations: TranslationStore;
  spaceTemplates: SpaceTemplateStore;
  parseCache: ParseCacheStore;
  search: SearchStore;
  imports: ImportRunStore;
  sites: SiteStore;
  uploads: StorageUploadStore;
  users: UserStore;
  members: MemberStore;
  teams: TeamStore;
  permissions: PermissionStore;
  invites: InviteStore;
  saml: SamlStore;
  audit: AuditStore;
}

/**
 * The parse cache (`parse_cache`): what the page decoder made of a text (JSON), by organization, converter version
 * and content key (src/parse-cache/ computes both). Shared by the spaces of one organization, never across them.
 */
export interface ParseCacheStore {
  /** The cached summaries of those keys that have one (key → JSON text). */
  get(organizationId: string, converterVersion: string, keys: readonly string[]): Promise<Map<string, string>>;
  /** Stores summaries; a key already stored is left as it is. */
  put(organizationId: string, converterVersion: string, entries: ReadonlyArray<{ key: string; summary: string }>): Promise<void>;
  /** Deletes every row of another converter version (never read again); returns how many. */
  pruneOtherVersions(converterVersion: string): Promise<number>;
}

// ---------------------------------------------------------------------------------------------------
// Full-text search (src/store/search.ts)
// ---------------------------------------------------------------------------------------------------

/** One heading section of a page (or, with `anchor` '', the page's text before its first heading). */
export interface SearchSectionInput {
  anchor: string;
  title: string;
  body: string;
}

/** A page to (re)index: its sections replace the ones indexed before. */
export interface SearchPageInput {
  pageId: string;
  /** What the page's rows were built from (body hash, title, path, ancestors…): unchanged key, rows kept. */
  contentKey: string;
  /** Position in the revision's page tree (depth first). */
  ord: number;
  title: string;
  description: string;
  path: string;
  /** Titles of the parent pages, top-level first. */
  ancestors: string[];
  sections: SearchSectionInput[];
}

/** What a space's index holds now. */
export interface SearchIndexState {
  revisionId: string;
  config: string;
  /** pageId → contentKey. */
  keys: Map<string, string>;
}

export interface SearchIndexApply {
  spaceId: string;
  organizationId: string;
  revisionId: string;
  config: string;
  /** Pages indexed before whose rows stay (their key is unchanged); `ord` may have moved. */
  keep: Array<{ pageId: string; ord: number }>;
  upsert: SearchPageInput[];
}

export interface SearchSectionHit {
  anchor: string;
  title: string;
  /** A snippet of the section's text; matched words between `<mark>` and `</mark>`, the rest HTML-escaped. */
  snippet: string;
  score: number;
}

export interface SearchPageHit {
  spaceId: string;
  pageId: string;
  title: string;
  description: string;
  path: string;
  ancestors: string[];
  score: number;
  /** One-based position in the whole ranked result. */
  rank: number;
  /** `page`: the best match is the page's title, description or text before its first heading. */
  resultType: 'page' | 'section';
  /** The matching sections, best first. */
  sections: SearchSectionHit[];
}

export interface SearchQuery {
  organizationId: string;
  /** Only these spaces (of the organization); all of its spaces when absent. */
  spaceIds?: string[];
  /** Web-search syntax: words, "phrases", `or`, `-word`. */
  query: string;
  limit: number;
  page?: string;
}

/** The search index of spaces' primary revisions; deleted spaces are never found, purged ones lose their rows. */
export interface SearchStore {
  /** The text search configuration used for a space language (`simple` when none fits). */
  configFor(language: string | null): Promise<string>;
  /** null when the space was never indexed. */
  state(spaceId: string): Promise<SearchIndexState | null>;
  /**
   * Makes the space's index hold `revisionId`, in one transaction: pages absent from `keep` and `upsert` are
   * removed, `upsert` pages replace their rows. Refused (`applied: false`) when `revisionId` is no longer the
   * space's primary revision (a newer one will be indexed) or the space is gone or deleted.
   */
  apply(input: SearchIndexApply): Promise<{ applied: boolean; removed: number; written: number }>;
  /** Ranked pages with their matching sections and snippets. ValidationError for a bad cursor. */
  pages(query: SearchQuery): Promise<CountedPage<SearchPageHit> & { /** Spaces with a hit, over every page. */ spaces: number }>;
  /** The same pages found by a plain `ILIKE` scan of the indexed text, unranked (a benchmark's baseline). */
  scanPages(query: SearchQuery): Promise<Array<{ spaceId: string; pageId: string }>>;
}

// ---------------------------------------------------------------------------------------------------
// Content import runs (`import_runs`, `import_run_urls`): `/v1/org/{org}/imports` and the website import.
// ---------------------------------------------------------------------------------------------------

export type ImportRunStatus = 'pending' | 'in-progress' | 'completed' | 'failed' | 'cancelled';

export type ImportRunSource = { type: 'website'; url: string } | { type: 'file'; files: string[] };

export interface ImportRunRecord {
  id: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
  pageId: string | null;
  source: ImportRunSource;
  status: ImportRunStatus;
  /** Why the run failed (`status: failed`), with its stable code. */
  reason: string | null;
  code: string | null;
  revisionId: string | null;
  createdBy: string | null;
  importedResources: number;
  totalResources: number;
  currentUrl: string | null;
  /** Typed warnings of the run (pages kept raw, links not followed, …): `{ code, message, url? }`. */
  warnings: JsonObject[];
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

export interface ImportRunCreateInput {
  organizationId: string;
  spaceId: string;
  changeRequestId?: string | null;
  pageId?: string | null;
  source: ImportRunSource;
  createdBy?: string | null;
}

export interface ImportRunPatch {
  status?: ImportRunStatus;
  reason?: string | null;
  code?: string | null;
  revisionId?: string | null;
  importedResources?: number;
  totalResources?: number;
  currentUrl?: string | null;
  warnings?: JsonObject[];
}

export type ImportUrlKind = 'page' | 'asset';
export type ImportUrlStatus = 'pending' | 'fetched' | 'failed' | 'skipped';

/** One URL of a run: its place in discovery order, and what its fetch left (the checkpoint). */
export interface ImportUrlRecord {
  url: string;
  ord: number;
  kind: ImportUrlKind;
  depth: number;
  status: ImportUrlStatus;
  blobHash: string | null;
  size: number | null;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  /** The URL that answered, after redirects. */
  finalUrl: string | null;
  /** A page's analysis (title, navigation, links, assets), as the crawl read it. */
  analysis: Json | null;
  error: string | null;
}

export interface ImportUrlResult {
  status: Exclude<ImportUrlStatus, 'pending'>;
  blobHash?: string | null;
  size?: number | null;
  contentType?: string | null;
  etag?: string | null;
  lastModified?: string | null;
  finalUrl?: string | null;
  analysis?: Json | null;
  error?: string | null;
}

export interface ImportRunStore {
  /** A new run, `pending`. NotFoundError when the organization or the space is unknown. */
  create(input: ImportRunCreateInput): Promise<ImportRunRecord>;
  /** The run, when it belongs to `organizationId` (else null, as an unknown one). */
  get(organizationId: string, id: string): Promise<ImportRunRecord | null>;
  /** Newest first, filtered by space, change request and status (`active`: pending and in-progress). */
  list(
    organizationId: string,
    options: PageOptions & { spaceId?: string; changeRequestId?: string; status?: ImportRunStatus | 'active' },
  ): Promise<CountedPage<ImportRunRecord>>;
  /**
   * Merges `patch`; `status` moves only forward (a finished run is never changed again: the returned record shows
   * it as it is). NotFoundError when unknown. Sets `startedAt` on `in-progress`, `completedAt` on a final status.
   */
  update(id: string, patch: ImportRunPatch): Promise<ImportRunRecord>;
  /** Adds URLs not known yet, numbered after the run's last one in the order given; returns those added. */
  addUrls(runId: string, urls: ReadonlyArray<{ url: string; kind: ImportUrlKind; depth: number }>): Promise<string[]>;
  /** Records the outcome of one URL's fetch. */
  recordUrl(runId: string, url: string, result: ImportUrlResult): Promise<void>;
  /** Every URL of the run in discovery order (optionally only one status or kind). */
  urls(runId: string, filter?: { status?: ImportUrlStatus; kind?: ImportUrlKind }): Promise<ImportUrlRecord[]>;
  /** How many URLs the run has, by kind and status. */
  counts(runId: string): Promise<{ pages: number; assets: number; done: number; total: number; bytes: number }>;
}

// ---------------------------------------------------------------------------------------------------
// Files uploaded through signed URLs (`storage_uploads`): `POST /v1/orgs/{org}/storage/upload`, file imports.
// ---------------------------------------------------------------------------------------------------

export type StorageUploadKind = 'import_file';

export interface StorageUploadRecord {
  key: string;
  organizationId: string;
  kind: StorageUploadKind;
  name: string;
  contentType: string;
  /** The size announced when the URL was made; the upload must have exactly these bytes. */
  size: number;
  /** The uploaded bytes' blob, null until the upload. */
  blobHash: string | null;
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  uploadedAt: Date | null;
}

export interface StorageUploadStore {
  /** A new upload slot; `tokenHash` is the SHA-256 of the signed URL's secret. */
  create(input: {
    key: string;
    organizationId: string;
    kind: StorageUploadKind;
    name: string;
    contentType: string;
    size: number;
    tokenHash: string;
    expiresAt: Date;
    createdBy?: string | null;
  }): Promise<StorageUploadRecord>;
  /** The slot whose signed URL's secret hashes to `tokenHash`, or null. */
  byToken(tokenHash: string): Promise<StorageUploadRecord | null>;
  /** Stores the bytes (a blob) and marks the slot uploaded; false when it was uploaded already. */
  complete(key: string, bytes: Uint8Array): Promise<boolean>;
  /** The organization's slots among `keys` (another organization's keys are absent, as unknown ones). */
  get(organizationId: string, keys: readonly string[]): Promise<Map<string, StorageUploadRecord>>;
}
