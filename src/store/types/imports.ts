import type { CountedPage, Json, JsonObject, PageOptions } from './common.js';

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
