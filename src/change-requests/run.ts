import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { ChangeRequestRecord, JsonObject, SpaceRecord, Store } from '../store/index.js';
import { assertEditable, assertMergeable } from './status.js';
import { conflictError, contentOf, threeWayMerge, type MergeOptions } from './merge.js';

/**
 * Bringing a change request up to date with the primary content (`update`) and merging it (`merge`), each as one
 * idempotent step over the store: the three-way merge (page by page, block by block) gives a new revision (the same
 * one on a retry, by its idempotency key), published by compare-and-set. `moved` means the primary content or the
 * change request changed between the read and the write: the caller runs the step again on the new content.
 */
export interface ChangeRequestStepInput {
  spaceId: string;
  changeRequestId: string;
}

export type ChangeRequestStepOutcome = { outcome: 'done'; revisionId: string; alreadyDone: boolean } | { outcome: 'moved' };

async function load(store: Store, input: ChangeRequestStepInput): Promise<{ space: SpaceRecord; cr: ChangeRequestRecord }> {
  const space = await store.spaces.get(input.spaceId);
  if (!space) throw new NotFoundError('space', input.spaceId);
  const cr = await store.changeRequests.get(space.id, input.changeRequestId);
  if (!cr) throw new NotFoundError('change request', input.changeRequestId);
  return { space, cr };
}

/** Revision-level data (converter config, SUMMARY layout) of the primary content, else of the change request. */
async function revisionData(store: Store, primary: string, other: string): Promise<JsonObject> {
  const [a, b] = await Promise.all([store.revisions.get(primary), store.revisions.get(other)]);
  const pick = (a?.data as { model?: unknown } | undefined)?.model ? a : b;
  const { changeRequestId: _drop, ...data } = (pick?.data ?? {}) as Record<string, unknown>;
  return data as JsonObject;
}

/** Merges the primary content into the change request (`POST …/update`); the change request's base becomes the primary revision. */
export async function updateChangeRequest(store: Store, input: ChangeRequestStepInput, options: MergeOptions): Promise<ChangeRequestStepOutcome> {
  const { space, cr } = await load(store, input);
  assertEditable(cr.number, cr.status);
  const primary = space.revisionId;
  if (!primary || primary === cr.revisionInitial) return { outcome: 'done', revisionId: cr.revisionId, alreadyDone: true };
  const merged = await threeWayMerge(store, cr.revisionInitial, primary, cr.revisionId, options);
  if (merged.conflicts.length > 0) throw conflictError(merged.conflicts);
  const { id } = await store.revisions.create({
    spaceId: space.id,
    parents: [cr.revisionId, primary],
    type: 'update',
    data: await revisionData(store, primary, cr.revisionId),
    pages: merged.pages,
    files: merged.files,
    idempotencyKey: `update/${cr.id}/${cr.revisionId}/${primary}`,
  });
  try {
    await store.changeRequests.setRevision(cr.id, id, cr.revisionId, { revisionInitial: primary });
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    const now = await store.changeRequests.get(space.id, cr.id);
    if (now?.revisionId === id) return { outcome: 'done', revisionId: id, alreadyDone: false }; // a retry of this step
    if (now?.status === 'merged') throw new ValidationError(`change request ${cr.number} is already merged`);
    return { outcome: 'moved' };
  }
  return { outcome: 'done', revisionId: id, alreadyDone: false };
}

/**
 * Merges the change request into the primary content (`POST …/merge`): as it is when it is not behind, else by the
 * three-way merge. The space's primary revision moves by compare-and-set; the change request is marked merged.
 */
export async function mergeChangeRequest(
  store: Store,
  input: ChangeRequestStepInput & { mergedBy: string | null },
  options: MergeOptions,
): Promise<ChangeRequestStepOutcome> {
  const { space, cr } = await load(store, input);
  if (cr.status === 'merged') return { outcome: 'done', revisionId: cr.mergedRevisionId!, alreadyDone: true };
  assertMergeable(cr.number, cr.status);
  const primary = space.revisionId;
  if (!primary) throw new ValidationError('the space has no content yet');
  // A retry after the primary content moved to this change request's merge: only the marking is left.
  const head = await store.revisions.get(primary);
  if (head?.type === 'merge' && head.data.changeRequestId === cr.id && head.parents.includes(cr.revisionId)) {
    await store.changeRequests.markMerged(cr.id, primary, input.mergedBy);
    return { outcome: 'done', revisionId: primary, alreadyDone: false };
  }
  const merged =
    primary === cr.revisionInitial ? await contentOf(store, cr.revisionId) : await threeWayMerge(store, cr.revisionInitial, primary, cr.revisionId, options);
  if (merged.conflicts.length > 0) throw conflictError(merged.conflicts);
  const { id } = await store.revisions.create({
    spaceId: space.id,
    parents: [primary, cr.revisionId],
    type: 'merge',
    data: { ...(await revisionData(store, primary, cr.revisionId)), changeRequestId: cr.id },
    pages: merged.pages,
    files: merged.files,
    idempotencyKey: `merge/${cr.id}/${cr.revisionId}/${primary}`,
  });
  try {
    await store.spaces.setPrimaryRevision(space.id, id, { expected: primary });
  } catch (err) {
    if ((err as { code?: string }).code !== 'CONFLICT') throw err;
    // A retry after the move (the primary is this revision already), or another change moved it: merge again.
    if ((await store.spaces.get(space.id))?.revisionId !== id) return { outcome: 'moved' };
  }
  await store.changeRequests.markMerged(cr.id, id, input.mergedBy);
  return { outcome: 'done', revisionId: id, alreadyDone: false };
}
