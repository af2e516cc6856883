import { FolioError } from '../errors.js';
import type { SpaceRecord } from '../store/index.js';

/** A content change was refused because the space's `editMode` is `locked` (HTTP 403, code `LOCKED`). */
export class SpaceLockedError extends FolioError {
  constructor(spaceId: string) {
    super(
      'LOCKED',
      `space ${spaceId} is locked (editMode: locked): unlock it with PATCH /v1/spaces/${spaceId} {"editMode":"live"} before changing its content`,
      {
        data: { spaceId },
      },
    );
  }
}

/**
 * Throws `SpaceLockedError` unless the space's content may change. Every content change (change-request
 * edits and merges, git imports) calls it first. Activities map it to
 * `ApplicationFailure.nonRetryable(err.message, 'LOCKED')`.
 */
export function assertSpaceEditable(space: Pick<SpaceRecord, 'id' | 'editMode'>): void {
  if (space.editMode === 'locked') throw new SpaceLockedError(space.id);
}
