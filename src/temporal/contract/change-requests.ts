/**
 * `space/<spaceId>/change-request/<changeRequestId>/<operation>`: bringing a change request up to date with the
 * primary content (`update`) or merging it (`merge`), by the three-way merge of src/change-requests/. Ids only.
 */
export interface ChangeRequestMergeInput {
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
  operation: 'update' | 'merge';
  /** Who merges (a user or token id); recorded as the change request's `mergedBy`. */
  actor: string | null;
}

export interface ChangeRequestMergeResult {
  revisionId: string;
  /** Nothing to do: the change request was current (update) or merged already (merge). */
  alreadyDone: boolean;
  /** How many times the merge was built (more than 1 when the content moved meanwhile). */
  attempts: number;
}
