import { ApplicationFailure, heartbeat } from '@temporalio/activity';
import { copySpaceContent, type CopyContentInput } from '../src/change-requests/duplicate.js';
import { FolioError } from '../src/errors.js';
import type { CreateSpaceInput, CreateSpaceResult } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';

export function createSpaceActivities({ store }: ActivityDeps) {
  return {
    /** `POST /spaces/{id}/duplicate`: the source's revision made the new space's content (idempotent, src/change-requests/duplicate.ts). */
    async spaceCopyContent(input: CopyContentInput): Promise<{ revisionId: string }> {
      const beat = setInterval(() => heartbeat(), 5000);
      try {
        return await copySpaceContent(store, input);
      } catch (err) {
        if (err instanceof FolioError && err.code === 'NOT_FOUND') throw ApplicationFailure.nonRetryable(err.message, 'NOT_FOUND');
        throw err;
      } finally {
        clearInterval(beat);
      }
    },
    /** Idempotent: a space that already exists (a retry) is returned as it is. */
    async createSpace(input: CreateSpaceInput): Promise<CreateSpaceResult> {
      const org = await store.orgs.get(input.organizationId);
      if (!org) throw ApplicationFailure.nonRetryable(`organization not found: ${input.organizationId}`, 'NOT_FOUND');
      const existing = await store.spaces.get(input.spaceId, { includeDeleted: true });
      if (existing) {
        if (existing.organizationId !== input.organizationId) {
          throw ApplicationFailure.nonRetryable(`space id ${input.spaceId} is taken`, 'CONFLICT');
        }
        if (existing.revisionId) return { spaceId: existing.id, revisionId: existing.revisionId };
      } else {
        await store.spaces.create(input.organizationId, {
          id: input.spaceId,
          title: input.title,
          emoji: input.emoji,
          language: input.language,
          editMode: input.editMode,
          visibility: input.visibility,
          parent: input.parent,
        });
      }
      const { id: revisionId } = await store.revisions.create({
        spaceId: input.spaceId,
        parents: [],
        type: 'edits',
        pages: [],
        files: [],
        idempotencyKey: `space/${input.spaceId}/initial`,
      });
      await store.spaces.setPrimaryRevision(input.spaceId, revisionId, { expected: null }).catch(async (err: unknown) => {
        const now = await store.spaces.get(input.spaceId, { includeDeleted: true });
        if (now?.revisionId !== revisionId) throw err;
      });
      return { spaceId: input.spaceId, revisionId };
    },
  };
}
