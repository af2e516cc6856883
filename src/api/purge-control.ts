import { signalRestore as signalRestoreWorkflow, startPurge as startPurgeWorkflow } from '../temporal/client/start.js';
import { workflowStarter, type ApiDeps } from './deps.js';

/**
 * Starts `space/<id>/purge` for a deletion, `config.purgeAfterMs` after it. The same deletion twice is a
 * no-op; a run left over from an earlier deletion is replaced.
 */
export async function startPurge(deps: ApiDeps, space: { id: string; organizationId: string }, deletionId: string): Promise<void> {
  await startPurgeWorkflow(workflowStarter(deps), space, deletionId, deps.config.purgeAfterMs);
}

/** Tells the purge workflow its deletion was undone; nothing to do when it is not running. */
export async function signalRestore(deps: ApiDeps, spaceId: string, deletionId: string): Promise<void> {
  await signalRestoreWorkflow(deps.temporal, spaceId, deletionId);
}
