/** The run's status, at its start and its end (the workflow's bookkeeping activities). */
import type { ImportRunStatus, Store } from '../../store/index.js';
import { loadRun, type ImportRunRef } from './context.js';

export interface ImportRunOutcome extends ImportRunRef {
  status: 'completed' | 'failed' | 'cancelled';
  code?: string;
  reason?: string;
  revisionId?: string;
  importedResources?: number;
  totalResources?: number;
}

export async function markStarted(store: Store, ref: ImportRunRef): Promise<{ status: ImportRunStatus }> {
  await loadRun(store, ref);
  const run = await store.imports.update(ref.runId, { status: 'in-progress' });
  return { status: run.status };
}

export async function finishRun(store: Store, input: ImportRunOutcome): Promise<{ status: ImportRunStatus }> {
  const run = await store.imports.get(input.organizationId, input.runId);
  if (!run) return { status: 'failed' }; // the space (and its runs) was purged meanwhile: nothing to record
  const updated = await store.imports.update(input.runId, {
    status: input.status,
    ...(input.code !== undefined ? { code: input.code } : {}),
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    ...(input.revisionId !== undefined ? { revisionId: input.revisionId } : {}),
    ...(input.importedResources !== undefined ? { importedResources: input.importedResources } : {}),
    ...(input.totalResources !== undefined ? { totalResources: input.totalResources } : {}),
    currentUrl: null,
  });
  return { status: updated.status };
}
