import type { CountedPage, PageOptions } from './common.js';

/** The stored form of a processing failure's code (src/openapi/errors.ts classifies failures). */
export type OpenApiErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR' | 'SPEC_TOO_COMPLEX';

/** One problem of a specification: where (file and JSON pointer) and what. */
export interface SpecProblem {
  location: string;
  message: string;
}

export type SpecVisibility = 'private' | 'public';

/** A specification's source as the API receives it. */
export type SpecSourceInput = { url: string } | { text: string };

/** A specification's source as processing reads it (a stored text is read back from its blob). */
export type SpecSource = { url: string } | { text: string };

export interface SpecInfo {
  /** `3.1.0`, `3.0.3`, `2.0` … */
  specVersion: string;
  title: string | undefined;
  version: string | undefined;
}

/** What a successful processing run stores as a version. */
export interface ProcessedSpecVersion {
  hash: string;
  rootPath: string;
  /** Every document of the specification, keyed by path relative to the root (other origins: absolute URL). */
  filesystem: Record<string, string>;
  url: string | undefined;
  info: SpecInfo;
  warnings: SpecProblem[];
  warningCount: number;
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
    result: ProcessedSpecVersion,
  ): Promise<{ spec: OpenApiSpecRecord; version: OpenApiVersionRecord | null; created: boolean; applied: boolean }>;
  /** Records a failed run: the code and errors are set, the last version stays. Ignored when a newer run is recorded. */
  recordFailure(id: string, run: number, failure: RunFailure): Promise<{ spec: OpenApiSpecRecord; applied: boolean }>;
  /** Newest first. */
  listVersions(specId: string, options: PageOptions): Promise<CountedPage<OpenApiVersionRecord>>;
  getVersion(specId: string, versionId: string): Promise<OpenApiVersionRecord | null>;
  latestVersion(specId: string): Promise<OpenApiVersionRecord | null>;
  versionContent(version: OpenApiVersionRecord): Promise<OpenApiVersionContent>;
}
