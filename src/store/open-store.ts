import { mkdir } from 'node:fs/promises';
import { ValidationError } from '../errors.js';
import { redact } from '../redact.js';
import { blobContentOf, createBlobStore, type BlobBackend } from './blobs.js';
import { createChangeRequestStore } from './change-requests.js';
import { StoreUnavailableError } from './errors.js';
import { createGitRequestLogStore } from './git-requests.js';
import { createGitSyncStore } from './git-sync.js';
import { runMigrations } from './migrate.js';
import { migrations } from './migrations/index.js';
import { createOpenApiStore } from './openapi.js';
import { createImportRunStore } from './imports.js';
import { createStorageUploadStore } from './storage-uploads.js';
import { createPdfExportStore } from './pdf-exports.js';
import { createOrgStore } from './orgs.js';
import { attachSql } from './raw-sql.js';
import { createRevisionStore } from './revisions.js';
import { createSearchStore } from './search.js';
import { createSiteStore } from './sites.js';
import { createSiteSectionStore } from './site-sections.js';
import { createSiteSettingsStore } from './site-settings.js';
import { createSpaceStore } from './spaces.js';
import { openPgSql } from './sql-pg.js';
import { openPgliteSql } from './sql-pglite.js';
import { createTokenStore } from './tokens.js';
import { createTranslationStore } from './translations.js';
import { createVaultStore } from './vault.js';
import { createSpaceTemplateStore } from './space-templates.js';
import { createParseCacheStore } from './parse-cache.js';
import { createAuditStore } from './audit.js';
import { createEventStore } from './events.js';
import { createIntegrationStore } from './integrations.js';
import { createInviteStore } from './invites.js';
import { createMemberStore, createUserStore } from './people.js';
import { createPermissionStore } from './permissions.js';
import { createSamlStore } from './saml.js';
import { createTeamStore } from './teams.js';
import { createCollectionStore } from './collections.js';
import { createCommentStore } from './comments.js';
import { createReviewStore } from './reviews.js';
import type { BlobStoreOptions, OpenStoreOptions, Sql, Store } from './types/index.js';

function isMemory(dataDir: string): boolean {
  return dataDir.startsWith('memory://');
}

/** Rejects options that cannot open a store, before anything is opened. */
function checkOpenOptions(options: OpenStoreOptions, blobOptions: BlobStoreOptions): void {
  if (blobOptions.kind === 'directory' && (typeof blobOptions.dir !== 'string' || blobOptions.dir === ''))
    throw new ValidationError('the directory blob store needs a dir');
  if (blobOptions.kind === 's3' && !(typeof blobOptions.bucket === 'string' && blobOptions.bucket !== ''))
    throw new ValidationError('the s3 blob store needs a bucket');
  if (options.poolSize !== undefined && (!Number.isInteger(options.poolSize) || options.poolSize < 1))
    throw new ValidationError('poolSize must be a positive integer');
  if (options.connectWaitMs !== undefined && !(Number.isFinite(options.connectWaitMs) && options.connectWaitMs >= 0))
    throw new ValidationError('connectWaitMs must be a non-negative number');
}

/** The database: a PostgreSQL server through pg when `databaseUrl` is given, else PGlite in `dataDir`. */
async function openSql(options: OpenStoreOptions): Promise<Sql> {
  if (options.databaseUrl) return openPgSql(options.databaseUrl, { poolSize: options.poolSize, logger: options.logger, connectWaitMs: options.connectWaitMs });
  const dataDir = options.dataDir ?? 'memory://';
  if (!isMemory(dataDir)) await mkdir(dataDir, { recursive: true });
  try {
    return await openPgliteSql(dataDir, { loadDataDir: options.pgliteTemplate });
  } catch (err) {
    throw new StoreUnavailableError(`cannot open the embedded database in ${dataDir}: ${err instanceof Error ? err.message : String(err)}`, err);
  }
}

/** The members of the store that hold the data, one per domain, all on the same database. */
function createMemberStores(sql: Sql, blobs: BlobBackend): Omit<Store, 'blobs' | 'migrate' | 'health' | 'close'> {
  return {
    orgs: createOrgStore(sql),
    tokens: createTokenStore(sql),
    spaces: createSpaceStore(sql, blobs),
    revisions: createRevisionStore(sql, blobs),
    gitSync: createGitSyncStore(sql),
    gitRequests: createGitRequestLogStore(sql),
    vault: createVaultStore(sql),
    spaceTemplates: createSpaceTemplateStore(sql),
    parseCache: createParseCacheStore(sql),
    changeRequests: createChangeRequestStore(sql),
    openapi: createOpenApiStore(sql, blobs),
    translations: createTranslationStore(sql),
    search: createSearchStore(sql),
    imports: createImportRunStore(sql),
    sites: createSiteStore(sql),
    siteSections: createSiteSectionStore(sql),
    siteSettings: createSiteSettingsStore(sql),
    uploads: createStorageUploadStore(sql, blobs),
    pdfExports: createPdfExportStore(sql),
    users: createUserStore(sql),
    members: createMemberStore(sql),
    teams: createTeamStore(sql),
    permissions: createPermissionStore(sql),
    invites: createInviteStore(sql),
    saml: createSamlStore(sql),
    audit: createAuditStore(sql),
    collections: createCollectionStore(sql),
    comments: createCommentStore(sql),
    reviews: createReviewStore(sql),
    events: createEventStore(sql),
    integrations: createIntegrationStore(sql),
  };
}

/**
 * Opens the content store: a PostgreSQL server through pg when `databaseUrl` is given, else PGlite in
 * `dataDir` (default in memory). Applies pending migrations unless `migrate: false`.
 */
export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  const blobOptions = options.blobs ?? { kind: 'database' };
  checkOpenOptions(options, blobOptions);
  const sql = await openSql(options);

  const content = blobContentOf(blobOptions);
  try {
    await content?.open();
  } catch (err) {
    await sql.close().catch(() => undefined);
    throw err;
  }
  const blobs = createBlobStore(sql, blobOptions, content);
  const logger = options.logger;
  let closed = false;
  const store: Store = {
    blobs,
    migrate: () => runMigrations(sql, migrations, logger),
    async health() {
      if (closed) throw new StoreUnavailableError('the store is closed');
      try {
        await sql.query('SELECT 1');
      } catch (err) {
        if (err instanceof StoreUnavailableError) throw err;
        throw new StoreUnavailableError(`database check failed: ${redact(err instanceof Error ? err.message : String(err))}`, err);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      content?.close();
      await sql.close();
    },
    ...createMemberStores(sql, blobs),
  };
  attachSql(store, sql);

  if (options.migrate !== false) {
    try {
      await store.migrate();
    } catch (err) {
      await sql.close().catch(() => {});
      throw err;
    }
  }
  logger?.debug({ backend: sql.dialect, blobs: blobs.kind }, 'store open');
  return store;
}
