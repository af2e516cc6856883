import type { ImportRunRecord } from '../../store/index.js';
import { iso, type UrlBuilder } from './urls.js';

/**
 * The official `ContentImportRun` of a run, with Folio's progress members (`importedResources`,
 * `totalResources`, `currentURL`, `warnings`, `revision`) beside the spec's.
 */
export function importRunObject(run: ImportRunRecord, urls: UrlBuilder) {
  return {
    object: 'import-run' as const,
    id: run.id,
    status: run.status,
    ...(run.status === 'failed' && run.reason ? { reason: run.code ? `${run.code}: ${run.reason}` : run.reason } : {}),
    source: run.source,
    target: {
      space: run.spaceId,
      ...(run.changeRequestId ? { changeRequest: run.changeRequestId } : {}),
      ...(run.pageId ? { page: run.pageId } : {}),
    },
    createdAt: iso(run.createdAt)!,
    updatedAt: iso(run.updatedAt)!,
    ...(run.startedAt ? { startedAt: iso(run.startedAt)! } : {}),
    ...(run.status === 'completed' && run.completedAt ? { completedAt: iso(run.completedAt)! } : {}),
    ...(run.createdBy ? { createdBy: run.createdBy } : {}),
    urls: { location: urls.api(`/org/${run.organizationId}/imports/${run.id}`) },
    importedResources: run.importedResources,
    totalResources: run.totalResources,
    ...(run.currentUrl ? { currentURL: run.currentUrl } : {}),
    ...(run.revisionId ? { revision: run.revisionId } : {}),
    ...(run.code ? { code: run.code } : {}),
    warnings: run.warnings,
  };
}
