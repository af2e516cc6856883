/** The search index workflow: `space/<spaceId>/search-index/<revisionId>` indexes the space's primary revision. */
export const searchIndexWorkflowId = (spaceId: string, revisionId: string) => `space/${spaceId}/search-index/${revisionId}`;

/** Ids only: the activity reads the space's current primary revision (which may be newer than `revisionId`). */
export interface SearchIndexInput {
  spaceId: string;
  organizationId: string;
  /** The primary revision that triggered the run. */
  revisionId: string;
}

export interface SearchIndexResult {
  /**
   * `indexed`: the index now holds `revisionId`; `current`: it already did; `superseded`: the primary revision
   * changed while indexing (the run of the newer one indexes it); `skipped`: the space is gone or deleted.
   */
  outcome: 'indexed' | 'current' | 'superseded' | 'skipped';
  revisionId?: string;
  /** Pages in the index after the run. */
  pages: number;
  /** Pages whose sections were (re)built; the others kept their rows (same body, title and place). */
  reindexed: number;
  removed: number;
  /** Pages indexed by their title only (too complex to parse within the budget, or kept as raw bytes). */
  titleOnly: number;
}

export type SearchIndexWorkflow = (input: SearchIndexInput) => Promise<SearchIndexResult>;
