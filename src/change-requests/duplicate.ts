import { NotFoundError } from '../errors.js';
import type { Store } from '../store/index.js';
import { contentOf } from './merge.js';

export interface CopyContentInput {
  /** The space copied from and the revision of it that is copied (its primary one when the copy was asked for). */
  sourceSpaceId: string;
  sourceRevisionId: string;
  /** The new space (made empty by `space/<id>/create`). */
  spaceId: string;
}

/**
 * The content of a space's revision made the primary content of another space of the organization (`POST
 * /spaces/{id}/duplicate`): the page tree and the files with their ids, metadata and revision-level data; bodies and
 * files are content-addressed blobs, so nothing is read or written but the records. Idempotent: a retry finds the
 * revision it made (by its idempotency key) already primary.
 */
export async function copySpaceContent(store: Store, input: CopyContentInput): Promise<{ revisionId: string }> {
  const [source, target, revision] = await Promise.all([
    store.spaces.get(input.sourceSpaceId),
    store.spaces.get(input.spaceId),
    store.revisions.get(input.sourceRevisionId),
  ]);
  if (!source || !revision || revision.spaceId !== source.id) throw new NotFoundError('space content', `${input.sourceSpaceId}@${input.sourceRevisionId}`);
  if (!target || target.organizationId !== source.organizationId) throw new NotFoundError('space', input.spaceId);
  const { pages, files } = await contentOf(store, revision.id);
  const { changeRequestId: _cr, ...data } = revision.data as Record<string, unknown>;
  const { id } = await store.revisions.create({
    spaceId: target.id,
    parents: target.revisionId ? [target.revisionId] : [],
    type: 'edits',
    data: { ...(data as typeof revision.data), duplicatedFrom: { spaceId: source.id, revisionId: revision.id } },
    pages,
    files,
    idempotencyKey: `duplicate/${source.id}/${revision.id}`,
  });
  if (target.revisionId === id) return { revisionId: id };
  try {
    await store.spaces.setPrimaryRevision(target.id, id, { expected: target.revisionId });
  } catch (err) {
    if ((await store.spaces.get(target.id))?.revisionId !== id) throw err;
  }
  return { revisionId: id };
}
