/** What the git sync operations share: the dependencies, the space-scoped git caches, the fetch policy and the credential vault. */
import type { Config } from '../config/config.js';
import { openCache, removeLegacyCaches, type RepoCache } from '../git/index.js';
import { getGitCredentials } from './credentials.js';
import type { Logger } from '../log.js';
import { fetchPolicyFromConfig, type FetchPolicy } from '../net/policy.js';
import type { ParsePool } from '../parse-threads/pool.js';
import type { ParseTaskOptions } from '../parse-pool/pool.js';
import { operationParseTask } from '../parse-pool/from-config.js';
import type { SpaceRecord, Store } from '../store/index.js';
import type { GitSyncRequest } from '../temporal/contract/index.js';
import { openVault, type SecretVault } from '../vault/index.js';
import { gitCacheRoot } from './cache-root.js';
import type { PageCodecRunner } from '../format/index.js';
import { poolPageCodec } from '../parse-threads/page-codec.js';
import { cachedPageCodec, pruneParseCache, type CachedPageCodec } from '../parse-cache/index.js';
import { PreviousRevisions } from './previous-revisions.js';
import { GitSyncError } from './errors.js';

/** What the git sync context is built from (the activities' dependencies). */
export interface GitSyncDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** The parse pool, asked for on first use (its threads start then). */
  parsePool(): ParsePool;
}

export interface GitSyncContext {
  store: Store;
  config: Config;
  logger: Logger;
  vault(): SecretVault;
  cacheRoot: string;
  /**
   * The space's cache for the request's remote, under `<cacheRoot>/orgs/<organizationId>/<spaceId>/` taken from
   * the space's record: `repoCacheID` selects a cache within the space only.
   */
  openSpaceCache(space: SpaceRecord, request: Pick<GitSyncRequest, 'url' | 'ref' | 'repoCacheID'>): Promise<RepoCache>;
  /** FETCH_DENY_PRIVATE_NETWORKS / FETCH_ALLOW_HOSTS: what every git request of these activities may reach. */
  fetchPolicy: FetchPolicy;
  /**
   * Pages are parsed and written in the parse pool, with its time and memory budgets; `task` (`parseTask`): the
   * operation's organization, budget and cancellation.
   */
  pageCodec(task?: ParseTaskOptions): PageCodecRunner;
  /** `pageCodec(task)` behind the organization's parse cache (one per import: its lookups and writes are batched). */
  cachedPageCodec(organizationId: string, task?: ParseTaskOptions): CachedPageCodec;
  /** The parse tasks' options of one operation of `organizationId` (`operationParseTask`: key, budget, signal). */
  parseTask(organizationId: string, operation: string, signal?: AbortSignal): ParseTaskOptions;
  /** Each space's latest revision without page bodies, kept in memory for its next incremental import. */
  previousRevisions: PreviousRevisions;
}

export function gitSyncContext(deps: GitSyncDeps): GitSyncContext {
  const pageCodec = (task?: ParseTaskOptions) => poolPageCodec(deps.parsePool(), task);
  const cacheRoot = gitCacheRoot(deps.config);
  // Caches of the pre-tenant layout (shared across spaces) are removed once per process, before the first use.
  let legacyRemoved: Promise<void> | undefined;
  const removeLegacy = () =>
    (legacyRemoved ??= removeLegacyCaches(cacheRoot).then(
      (names) => {
        if (names.length) deps.logger.info({ cacheRoot, removed: names.length }, 'removed git caches of the pre-tenant layout');
      },
      (err: unknown) => {
        legacyRemoved = undefined;
        throw err;
      },
    ));
  return {
    store: deps.store,
    config: deps.config,
    logger: deps.logger,
    cacheRoot,
    async openSpaceCache(space, request) {
      await removeLegacy();
      return openCache({
        root: cacheRoot,
        scope: { organizationId: space.organizationId, spaceId: space.id },
        url: request.url,
        ref: request.ref,
        ...(request.repoCacheID ? { repoCacheID: request.repoCacheID } : {}),
      });
    },
    fetchPolicy: fetchPolicyFromConfig(deps.config),
    previousRevisions: new PreviousRevisions(deps.store, { logger: deps.logger }),
    pageCodec,
    cachedPageCodec(organizationId, task) {
      pruneParseCache(deps.store, deps.logger);
      // 128 pages in flight: the parse cache is asked about up to 128 texts in one query (a space whose pages are all
      // in the cache waits for about a query per 128 pages; misses queue in the parse pool as before).
      return cachedPageCodec(pageCodec(task), { store: deps.store.parseCache, organizationId, logger: deps.logger, concurrency: 128 });
    },
    parseTask: (organizationId, operation, signal) => operationParseTask(deps.config, organizationId, operation, signal),
    vault: () => openVault(deps.store, { dataDir: deps.config.dataDir, secret: deps.config.vaultKey }),
  };
}

/** The credentials a request refers to: none, or the vault's for the request's own space (a missing entry is a typed failure). */
export async function credentialsOf(ctx: GitSyncContext, request: GitSyncRequest): Promise<{ username: string; password: string } | undefined> {
  if (!request.credentialId) return undefined;
  const creds = await getGitCredentials(ctx.vault(), request.credentialId, request.spaceId);
  if (!creds) throw new GitSyncError('CREDENTIALS_MISSING', 'the credentials of this request expired or were removed; send the request again');
  return creds;
}
