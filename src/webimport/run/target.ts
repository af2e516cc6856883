/**
 * The build's first phase: where the run's revision goes. The space, or the run's change request while it is open;
 * a locked space only through a change request; a run under one page needs content to graft onto.
 */
import type { ChangeRequestRecord, SpaceRecord } from '../../store/index.js';
import { ImportTargetLockedError, WebImportTargetGoneError } from '../errors.js';
import type { ImportRunContext } from './context.js';

export interface TargetedBuild extends ImportRunContext {
  readonly space: SpaceRecord;
  /** The change request the run imports into, when it names one. */
  readonly cr: ChangeRequestRecord | null;
  /** The revision the run's revision builds on (none when the target has no content yet). */
  readonly base: string | null;
}

export async function findTarget(c: ImportRunContext): Promise<TargetedBuild> {
  const { store } = c.deps;
  const { run } = c;
  const space = await store.spaces.get(run.spaceId);
  if (!space) throw new WebImportTargetGoneError(`space ${run.spaceId} was deleted`);
  const cr = run.changeRequestId ? await store.changeRequests.get(run.spaceId, run.changeRequestId) : null;
  if (run.changeRequestId && (!cr || cr.status === 'merged' || cr.status === 'archived'))
    throw new WebImportTargetGoneError(`change request ${run.changeRequestId} is ${cr ? cr.status : 'gone'}`);
  if (!cr && space.editMode === 'locked') throw new ImportTargetLockedError(space.id);
  const base = cr ? cr.revisionId : space.revisionId;
  if (run.pageId && !base) throw new WebImportTargetGoneError(`page ${run.pageId} is gone (the target has no content)`);
  return { ...c, space, cr, base };
}
