/**
 * Git sync: the messages and small types shared by the queue workflow, the import/export child workflows,
 * their activities and the API. Deterministic and free of Node built-ins. Nothing here ever carries a
 * credential: URLs are credential-free and credentials are referenced by a vault id.
 */
import type { Progress } from './progress.js';

export type GitDirection = 'import' | 'export';

/** One import or export request, as queued. Small: no content, no credentials. */
export interface GitSyncRequest {
  /** Deterministic id of the request (same body → same id): dedupes re-sent requests. */
  requestId: string;
  direction: GitDirection;
  spaceId: string;
  organizationId: string;
  /** Repository URL without userinfo. */
  url: string;
  /** Vault id of the basic-auth credentials that came with the URL, if any. */
  credentialId?: string;
  /** `refs/heads/<branch>`. */
  ref: string;
  /** ISO date-time of the triggering event (the API's receive time when the caller gave none). */
  timestamp: string;
  force: boolean;
  standalone: boolean;
  /** Export only. */
  commitMessage?: string;
  repoCacheID?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  /** Project directory inside the repository, `''` = root. */
  projectDirectory: string;
  gitInfo?: { provider?: string; url?: string };
  /** When the API accepted the request. */
  receivedAt: string;
  /** The user who asked for it (a personal token's user); absent for the organization's service token. Never a token. */
  actorId?: string;
  /**
   * Heartbeat timeout (ms) of the operation's activity, default 60 s: how long the attempt of a dead worker goes
   * unnoticed before it is retried: FOLIO_GIT_HEARTBEAT_TIMEOUT_MS when the API has it (tests that kill workers
   * shorten it).
   */
  heartbeatTimeoutMs?: number;
  /** First retry interval (ms) of the operation's activity, default 2 s: FOLIO_GIT_RETRY_INITIAL_MS when the API has it. */
  retryInitialIntervalMs?: number;
}

/** One typed warning of an operation (the converter's code, e.g. `FORMAT_PAGE_TOO_LARGE`), as reported. */
export interface GitOperationWarning {
  code: string;
  /** `error`: content was kept aside (raw bytes, a link instead of a page, …) and needs the operator's eye. */
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** Repository-relative path of the file concerned. */
  path?: string;
}

/** The warnings of an operation: all counted by code, the first ones (errors first) listed. */
export interface GitWarningReport {
  total: number;
  counts: Record<string, number>;
  warnings: GitOperationWarning[];
}

/** What an import or export child workflow returns: a small summary. */
export interface GitOperationResult {
  requestId: string;
  direction: GitDirection;
  /** `applied`: new content/commit; `noop`: nothing to do (loop protection, no change); `stale`: dropped by the store check. */
  outcome: 'applied' | 'noop' | 'stale';
  commit?: string;
  revisionId?: string;
  pagesChanged?: number;
  filesChanged?: number;
  detail?: string;
  /** Wall-clock milliseconds per phase of the activity (fetch, tree, parse, blobs, store), for profiling. */
  timingsMs?: Record<string, number>;
  /** Import: what the converter reported (pages kept as raw bytes, missing files, …); absent when nothing. */
  warnings?: GitWarningReport;
  /** Import: pages whose decoded form came from the organization's parse cache, and pages decoded (parsed) anew. */
  parseCache?: { hits: number; decoded: number };
  /**
   * The activity's last progress (files read, pages parsed, …): the workflow shows it as its final progress, so the
   * activity does not signal it (a workflow task, and a round trip before the activity could answer).
   */
  progress?: GitProgress;
}

/** `dropped-overflow`: the queue was full (QUEUE_FULL) and a newer request of the same direction superseded it. */
export type GitQueueOutcomeStatus = 'succeeded' | 'noop' | 'failed' | 'dropped-stale' | 'dropped-overflow' | 'duplicate';

export interface GitQueueOutcome {
  requestId: string;
  direction: GitDirection;
  timestamp: string;
  status: GitQueueOutcomeStatus;
  /** Error type (`CONFLICT`, `AUTH_FAILED`, …) or drop reason. */
  code?: string;
  message?: string;
  at: string;
  /** Vault id of the credentials of a request that never runs (dropped, duplicate): the recorder deletes them. */
  credentialId?: string;
}

/** Carried across continue-as-new. Bounded: `seen` and `recent` are trimmed. */
export interface GitQueueState {
  spaceId: string;
  organizationId: string;
  pending: GitSyncRequest[];
  /** Timestamp of the last applied request per direction. */
  lastApplied: { import?: string; export?: string };
  /** Request ids seen recently (queued, running or done), for dedupe. */
  seen: string[];
  recent: GitQueueOutcome[];
  processed: number;
  dropped: number;
  /** Runs so far (1 + continue-as-new count). */
  runs: number;
  /** Continue-as-new once the run's history is this long (besides the server's suggestion). Default 2000. */
  maxHistoryEvents?: number;
  /** Complete the queue after this long without requests (ms). Default 10 minutes. */
  idleTimeoutMs?: number;
  /**
   * Bounds of `pending` (carried through continue-as-new, so it must stay far below the 2 MiB payload limit):
   * at most this many requests (default MAX_PENDING) and this many bytes of JSON (default MAX_PENDING_BYTES).
   * Beyond, the oldest request superseded by a newer one of its direction is dropped (`dropped-overflow`).
   */
  maxPending?: number;
  maxPendingBytes?: number;
}

export interface GitQueueView {
  spaceId: string;
  running: { requestId: string; direction: GitDirection; timestamp: string } | null;
  pending: { requestId: string; direction: GitDirection; timestamp: string }[];
  lastApplied: { import?: string; export?: string };
  recent: GitQueueOutcome[];
  processed: number;
  dropped: number;
  runs: number;
}

/** The progress of a git import or export (the generic Progress with git's counts). */
export interface GitProgress extends Progress {
  filesRead?: number;
  /** Pages of the tree loaded so far (reused, parsed or kept as raw bytes), of `pagesToLoad`, while parsing. */
  pagesLoaded?: number;
  pagesToLoad?: number;
  pagesParsed?: number;
  blobsWritten?: number;
  loaded?: number;
  total?: number;
}

/** Names of the git workflows' signals and queries (the workflows define them with `defineSignal(name)`). */
export const gitSignals = {
  /** Queue a request (signal-with-start on `space/<id>/git`), argument GitSyncRequest. */
  enqueue: 'enqueueGitRequest',
  /** Live progress, sent by the import/export activity to its own workflow, argument GitProgress. */
  progress: 'gitProgress',
} as const;

export const gitQueries = {
  /** GitQueueView of `space/<id>/git`. */
  queueState: 'gitQueueState',
  /** GitProgress | null of an import/export workflow. */
  progress: 'gitProgress',
} as const;

/** What the API asks of the git queue: one request for one space (the start module builds the workflow's state). */
export interface GitEnqueueRequest {
  spaceId: string;
  organizationId: string;
  request: GitSyncRequest;
}

/** The state a new `space/<id>/git` run starts with. */
export function initialGitQueueState(spaceId: string, organizationId: string): GitQueueState {
  return { spaceId, organizationId, pending: [], lastApplied: {}, seen: [], recent: [], processed: 0, dropped: 0, runs: 1 };
}

export const RECENT_OUTCOMES = 50;
export const MAX_PENDING = 1000;
export const MAX_PENDING_BYTES = 1024 * 1024;
export const SEEN_IDS = 1000;

/** Failure types of git operations that no retry can fix. */
export const NON_RETRYABLE_GIT_ERRORS = [
  'AUTH_FAILED',
  'REPO_NOT_FOUND',
  'REF_NOT_FOUND',
  'PUSH_REJECTED',
  'FILE_TOO_LARGE',
  'TOO_MANY_PAGES',
  'CONFLICT',
  'SYNC_BASE_UNAVAILABLE',
  'INVALID_REQUEST',
  'INVALID_PATH',
  'NOT_FOUND',
  'CREDENTIALS_MISSING',
  'FORMAT_ERROR',
  'CANCELLED',
  'LOCKED',
  'BLOB_UNAVAILABLE',
  'FORMAT_NO_CONTENT',
  'REMOTE_CORRUPT',
] as const;
