import type { EventStore } from './events.js';
import type { IntegrationStore } from './integrations.js';
import type { AuditStore, InviteStore, MemberStore, PermissionStore, SamlStore, TeamStore, UserStore } from './people.js';
import type { BlobStore, BlobStoreOptions } from './blobs.js';
import type { ChangeRequestStore } from './change-requests.js';
import type { CollectionStore } from './collections.js';
import type { CommentStore } from './comments.js';
import type { ReviewStore } from './reviews.js';
import type { GitRequestLogStore, GitSyncStore } from './git-sync.js';
import type { ImportRunStore } from './imports.js';
import type { Logger } from '../../log.js';
import type { OpenApiStore } from './openapi.js';
import type { OrgStore, TokenStore } from './orgs.js';
import type { RevisionStore } from './revisions.js';
import type { SearchStore } from './search.js';
import type { SiteStore } from './sites.js';
import type { SiteSectionStore } from './site-sections.js';
import type { SiteSettingsStore } from './site-settings.js';
import type { SpaceStore, SpaceTemplateStore } from './spaces.js';
import type { StorageUploadStore } from './storage-uploads.js';
import type { PdfExportStore } from './pdf-exports.js';
import type { TranslationStore } from './translations.js';
import type { VaultStore } from './vault.js';

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
  /**
   * With `databaseUrl`: how long a statement waits for a server that is not there (connection refused, unix socket
   * missing, starting up: the embedded database server restarting) before failing with StoreUnavailableError.
   * Default 0 (fail at once: the API answers 503); the worker waits, so that a retried activity finds it back.
   */
  connectWaitMs?: number;
}

/** The content store. Its SQL connection stays inside src/store/ (tests reach it through ./raw-sql.ts). */

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
  siteSections: SiteSectionStore;
  /** A site's customization and redirects (issue 33). */
  siteSettings: SiteSettingsStore;
  uploads: StorageUploadStore;
  pdfExports: PdfExportStore;
  users: UserStore;
  members: MemberStore;
  teams: TeamStore;
  permissions: PermissionStore;
  invites: InviteStore;
  saml: SamlStore;
  audit: AuditStore;
  collections: CollectionStore;
  comments: CommentStore;
  reviews: ReviewStore;
  /** Content events, recorded by the members that commit the facts (issue 28). */
  events: EventStore;
  integrations: IntegrationStore;
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
