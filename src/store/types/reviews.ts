import type { CountedPage, PageOptions } from './common.js';

export type ContributionKind = 'edit' | 'comment';
export type ReviewStatus = 'approved' | 'changes-requested';

/** A user's contributions of one kind to a change request: how many, the last when. */
export interface ContributorRecord {
  userId: string;
  actionType: ContributionKind;
  count: number;
  updatedAt: Date;
}

export interface RequestedReviewerRecord {
  changeRequestId: string;
  userId: string;
  requestedBy: string;
  /** The change request's revision when the review was requested. */
  revisionId: string;
  createdAt: Date;
}

export interface ReviewRecord {
  id: string;
  changeRequestId: string;
  reviewer: string;
  /** Who asked for it (null: a review nobody requested). */
  requestedBy: string | null;
  status: ReviewStatus;
  revisionId: string;
  /** The comment given with the review (in the change request's thread), if any. */
  commentId: string | null;
  createdAt: Date;
  /** A newer review by the same reviewer, or a newer request to them, supersedes it. */
  outdated: boolean;
}

export interface ReviewStore {
  /** Counts one contribution (idempotence is the caller's: one call per edit or comment). */
  contribute(changeRequestId: string, userId: string, kind: ContributionKind): Promise<void>;
  /** Most recent first. */
  contributors(changeRequestId: string): Promise<ContributorRecord[]>;
  /** Asks these users (again: a new request replaces theirs) to review the change request at `revisionId`. */
  request(changeRequestId: string, userIds: readonly string[], requestedBy: string, revisionId: string): Promise<RequestedReviewerRecord[]>;
  /** Oldest first. */
  requested(changeRequestId: string, options: PageOptions): Promise<CountedPage<RequestedReviewerRecord>>;
  /** false when the user was not requested. */
  unrequest(changeRequestId: string, userId: string): Promise<boolean>;
  /** Records a review; the reviewer's pending request (if any) is answered by it. */
  submit(input: {
    id?: string;
    changeRequestId: string;
    reviewer: string;
    status: ReviewStatus;
    revisionId: string;
    commentId?: string | null;
  }): Promise<ReviewRecord>;
  /** Newest first. */
  list(changeRequestId: string, options: PageOptions & { outdated?: boolean }): Promise<CountedPage<ReviewRecord>>;
  get(changeRequestId: string, id: string): Promise<ReviewRecord | null>;
}
