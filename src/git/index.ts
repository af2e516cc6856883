/**
 * Folio's git access: a thin API over isomorphic-git working on bare repository caches,
 * without working trees. fetch → read → write → commit → push.
 */
export { resolveRemote, type GitCredentials, type SplitUrl } from './credentials.js';
export { openCache, removeCache, cacheKey, withCacheLock, type RepoCache, type CacheKeyInput, type LockOptions } from './cache.js';
export { spaceCacheDir, organizationCacheDir, TENANT_DIR, type CacheScope } from './cache-layout.js';
export { removeSpaceCaches, removeLegacyCaches } from './cache-cleanup.js';
export { fetchRef, type FetchRefOptions, type FetchRefResult, type GitProgress } from './fetch.js';
export { remoteRefCommit, type RemoteRefOptions } from './remote-ref.js';
export { AdvertisementMemo } from './advertisement-memo.js';
export {
  readTree,
  readBlob,
  readCommit,
  readTreeEntries,
  resolveTreeAt,
  diffTrees,
  DEFAULT_MAX_FILE_BYTES,
  type SourceTree,
  type SourceFile,
  type TreeOptions,
  type TreeEntry,
  type TreeDiff,
  type CommitInfo,
} from './tree.js';
export { writeTree, commit, EMPTY_TREE, type TreeChanges, type CommitOptions, type Signature } from './write.js';
export { push, type PushOptions, type PushResult } from './push.js';
export { parseTrailers, getTrailer, appendTrailers, type Trailer } from './trailers.js';
export { hasObject, isShallow } from './objects.js';
export { objectSize } from './object-size.js';
export {
  GitError,
  GitAuthFailedError,
  GitRepoNotFoundError,
  GitRefNotFoundError,
  GitPushRejectedError,
  GitNonFastForwardError,
  GitNetworkError,
  GitFileTooLargeError,
  GitCancelledError,
  GitObjectNotFoundError,
  GitInvalidPathError,
  GitCacheLockedError,
  GitProtocolError,
  GitAddressDeniedError,
  GitFetchRefusedError,
  isGitError,
  toGitError,
  type GitErrorCode,
} from './errors.js';
