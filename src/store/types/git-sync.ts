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

export interface GitSyncStore {
  get(spaceId: string): Promise<GitSyncState>;
  /**
   * Merges `patch` (top-level keys replaced). With `ifOperationState` it is a compare-and-set on
   * `operation.state` (null = no operation): ConflictError when it differs. NotFoundError for an unknown space.
   */
  update(spaceId: string, patch: GitSyncPatch, options?: { ifOperationState?: string | null }): Promise<GitSyncState>;
  /** The sealed secret of the space's push webhook (null clears it). NotFoundError for an unknown space. */
  setPushSecret(spaceId: string, sealed: Uint8Array | null): Promise<void>;
  pushSecret(spaceId: string): Promise<Uint8Array | null>;
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
