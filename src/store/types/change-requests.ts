import type { CountedPage } from './common.js';

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

/** Change requests (`change_requests`), numbered per space. */
export interface ChangeRequestStore {
  /** NotFoundError when the space is unknown or deleted. */
  create(input: ChangeRequestCreateInput): Promise<ChangeRequestRecord>;
  /** By id, or by number (`"12"`) when no change request of the space has that id. */
  get(spaceId: string, id: string): Promise<ChangeRequestRecord | null>;
  byMergedRevision(revisionId: string): Promise<ChangeRequestRecord | null>;
  /** Oldest first; `total` counts the whole list. */
  list(
    spaceId: string | readonly string[],
    options: {
      limit: number;
      page?: string;
      status?: ChangeRequestStatus | readonly ChangeRequestStatus[];
      /** Only those created by this user. */
      creator?: string;
      /** Only those this user contributed to (edits or comments). */
      contributor?: string;
      /** Only those this user is asked to review. */
      requestedReviewer?: string;
    },
  ): Promise<CountedPage<ChangeRequestRecord>>;
  /** Per space: every change request, the open ones, the drafts (0 for a space without any). */
  counts(spaceIds: string[]): Promise<Map<string, { total: number; open: number; draft: number }>>;
  /** NotFoundError when unknown. */
  update(spaceId: string, id: string, patch: { subject?: string; status?: ChangeRequestStatus }): Promise<ChangeRequestRecord>;
  /** Compare-and-set of the change request's revision (ConflictError when another edit landed first, or it was merged). */
  setRevision(id: string, revisionId: string, expected: string, options?: { revisionInitial?: string }): Promise<ChangeRequestRecord>;
  /** NotFoundError when unknown. */
  markMerged(id: string, mergedRevisionId: string, mergedBy?: string | null): Promise<ChangeRequestRecord>;
}
