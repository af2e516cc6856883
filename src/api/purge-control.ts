import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { OperationAttribute, OrganizationIdAttribute, SpaceIdAttribute, workflowIds } from '../../workflows/definitions.js';
import type { purgeSpaceWorkflow } from '../../workflows/purge.js';
import { purgeDeletionQuery, restoreSpaceSignal } from '../../workflows/purge.js';
import type { ApiDeps } from './deps.js';

/**
 * Starts `space/<id>/purge` for a deletion. The same deletion twice is a no-op; a run left over from an
 * earlier deletion (restored, still closing) is terminated and replaced.
 */
export async function startPurge(deps: ApiDeps, space: { id: string; organizationId: string }, deletionId: string): Promise<void> {
  const workflowId = workflowIds.purge(space.id);
  const start = () =>
    deps.temporal.workflow.start<typeof purgeSpaceWorkflow>('purgeSpaceWorkflow', {
      workflowId,
      taskQueue: deps.config.taskQueue,
      args: [{ spaceId: space.id, deletionId, purgeAfterMs: deps.config.purgeAfterMs }],
      typedSearchAttributes: [
        { key: SpaceIdAttribute, value: space.id },
        { key: OrganizationIdAttribute, value: space.organizationId },
        { key: OperationAttribute, value: 'purge-space' },
      ],
      staticSummary: `Purge space ${space.id} ${Math.round(deps.config.purgeAfterMs / 1000)} s after its deletion unless restored`,
      workflowIdConflictPolicy: 'FAIL',
    });
  try {
    await start();
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    const handle = deps.temporal.workflow.getHandle(workflowId);
    const running = await handle.query(purgeDeletionQuery).catch(() => undefined);
    if (running === deletionId) return;
    await handle.terminate(`superseded by deletion ${deletionId}`).catch((e: unknown) => {
      if (!(e instanceof WorkflowNotFoundError)) throw e;
    });
    await start();
  }
}

/** Tells the purge workflow its deletion was undone; nothing to do when it is not running. */
export async function signalRestore(deps: ApiDeps, spaceId: string, deletionId: string): Promise<void> {
  try {
    await deps.temporal.workflow.getHandle(workflowIds.purge(spaceId)).signal(restoreSpaceSignal, { deletionId });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}
