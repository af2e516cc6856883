/** `space/<id>/purge`: input, result, and the names of its signal and query. */
export interface PurgeSpaceInput {
  spaceId: string;
  /** The deletion this run belongs to (`SpaceRecord.deletionId`). */
  deletionId: string;
  /** The restore window; 7 days by default (`config.purgeAfterMs`). */
  purgeAfterMs: number;
}

export type PurgeSpaceResult =
  | { outcome: 'restored' }
  | { outcome: 'purged'; revisions: number; blobsDeleted: number }
  /** The space was restored, deleted by another deletion, or already gone when the window ended. */
  | { outcome: 'skipped'; reason: string };

/** Argument of the restore signal, sent by `POST /v1/spaces/{id}/restore` with the deletion it undoes. */
export interface RestoreSpaceSignalArgs {
  deletionId: string;
}

export const purgeSignals = {
  /** RestoreSpaceSignalArgs. */
  restore: 'restoreSpace',
} as const;

export const purgeQueries = {
  /** The deletion a running purge belongs to (so a new deletion can tell a stale run from its own): string. */
  deletionId: 'purgeDeletionId',
} as const;
