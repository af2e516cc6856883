/**
 * Compile-time check that the workflows match the contract's signatures and names (callers start them by
 * those alone). Types only: nothing here is bundled or run.
 */
import type * as contract from '../src/temporal/contract/index.js';
import type { createSpaceWorkflow } from './spaces.js';
import type { purgeSpaceWorkflow } from './purge.js';
import type { gitQueueWorkflow } from './git-queue.js';
import type { gitImportWorkflow } from './git-import.js';
import type { gitExportWorkflow } from './git-export.js';
import type { processOpenApiSpecWorkflow, refreshOpenApiSpecWorkflow } from './openapi.js';
import type { translationRunsWorkflow } from './translation-runs.js';
import type { applyTemplateWorkflow } from './apply-template.js';
import type { searchIndexWorkflow } from './search-index.js';
import type { contentImportWorkflow } from './content-import.js';
import type { publishSiteWorkflow } from './publish-site.js';
import type { pdfExportWorkflow } from './pdf-export.js';
import type { webhookDeliveryWorkflow, webhookSubscriberWorkflow } from './webhooks.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type ContractCheck = [
  Assert<Same<typeof createSpaceWorkflow, contract.CreateSpaceWorkflow>>,
  Assert<Same<typeof purgeSpaceWorkflow, contract.PurgeSpaceWorkflow>>,
  Assert<Same<typeof gitQueueWorkflow, contract.GitQueueWorkflow>>,
  Assert<Same<typeof gitImportWorkflow, contract.GitOperationWorkflow>>,
  Assert<Same<typeof gitExportWorkflow, contract.GitOperationWorkflow>>,
  Assert<Same<typeof processOpenApiSpecWorkflow, contract.ProcessOpenApiSpecWorkflow>>,
  Assert<Same<typeof refreshOpenApiSpecWorkflow, contract.RefreshOpenApiSpecWorkflow>>,
  Assert<Same<typeof translationRunsWorkflow, contract.TranslationRunsWorkflow>>,
  Assert<Same<typeof applyTemplateWorkflow, contract.ApplyTemplateWorkflow>>,
  Assert<Same<typeof searchIndexWorkflow, contract.SearchIndexWorkflow>>,
  Assert<Same<typeof contentImportWorkflow, contract.ContentImportWorkflow>>,
  Assert<Same<typeof publishSiteWorkflow, contract.PublishSiteWorkflow>>,
  Assert<Same<typeof pdfExportWorkflow, contract.PdfExportWorkflow>>,
  Assert<Same<typeof webhookSubscriberWorkflow, contract.WebhookSubscriberWorkflow>>,
  Assert<Same<typeof webhookDeliveryWorkflow, contract.WebhookDeliveryWorkflow>>,
  Assert<Same<(typeof contract.workflowTypes)[keyof typeof contract.workflowTypes], keyof typeof import('./index.js')>>,
];
