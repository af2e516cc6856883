// Every workflow Folio's worker runs. Deterministic code only: activities are imported as types.
export { createSpaceWorkflow } from './spaces.js';
export { purgeSpaceWorkflow } from './purge.js';
export { gitQueueWorkflow } from './git-queue.js';
export { gitImportWorkflow } from './git-import.js';
export { gitExportWorkflow } from './git-export.js';
export { processOpenApiSpecWorkflow, refreshOpenApiSpecWorkflow } from './openapi.js';
export { translationRunsWorkflow } from './translation-runs.js';
export { applyTemplateWorkflow } from './apply-template.js';
export { searchIndexWorkflow } from './search-index.js';
export { contentImportWorkflow } from './content-import.js';
export { publishSiteWorkflow } from './publish-site.js';
export { pdfExportWorkflow } from './pdf-export.js';
export { webhookSubscriberWorkflow, webhookDeliveryWorkflow } from './webhooks.js';
export { changeRequestMergeWorkflow } from './change-request-merge.js';
export { duplicateSpaceWorkflow } from './duplicate-space.js';
