import type { Migration } from '../types/index.js';

/** Who merged a change request (the API token's id), for `ChangeRequest.mergedBy`; null on rows merged before. */
export const migration: Migration = {
  id: '005_change_request_merged_by',
  sql: `ALTER TABLE change_requests ADD COLUMN merged_by text`,
};
