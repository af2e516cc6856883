/**
 * The workflow types Folio's worker registers: their names and signatures. Callers start workflows by these
 * (the start module types its calls with them), so nothing outside `workflows/` imports workflow code.
 */
import type { GitOperationResult, GitQueueState, GitSyncRequest } from './git.js';
import type { ProcessOpenApiSpecInput, ProcessOpenApiSpecResult, RefreshOpenApiSpecInput } from './openapi.js';
import type { PublishSiteInput, PublishSiteResult } from './publish.js';
import type { PdfExportInput, PdfExportResult } from './pdf.js';
import type { PurgeSpaceInput, PurgeSpaceResult } from './purge.js';
import type { CreateSpaceInput, CreateSpaceResult, DuplicateSpaceInput, DuplicateSpaceResult } from './spaces.js';
import type { TranslationQueueInput } from './translations.js';
import type { ApplyTemplateInput, ApplyTemplateResult } from './templates.js';
import type { ContentImportInput, ContentImportResult } from './imports.js';
import type { ChangeRequestMergeInput, ChangeRequestMergeResult } from './change-requests.js';
import type { WebhookDeliveryInput, WebhookDeliveryResult, WebhookSubscriberInput } from './webhooks.js';

export const workflowTypes = {
  createSpace: 'createSpaceWorkflow',
  purgeSpace: 'purgeSpaceWorkflow',
  gitQueue: 'gitQueueWorkflow',
  gitImport: 'gitImportWorkflow',
  gitExport: 'gitExportWorkflow',
  processOpenApiSpec: 'processOpenApiSpecWorkflow',
  refreshOpenApiSpec: 'refreshOpenApiSpecWorkflow',
  translationRuns: 'translationRunsWorkflow',
  applyTemplate: 'applyTemplateWorkflow',
  searchIndex: 'searchIndexWorkflow',
  contentImport: 'contentImportWorkflow',
  publishSite: 'publishSiteWorkflow',
  pdfExport: 'pdfExportWorkflow',
  webhookSubscriber: 'webhookSubscriberWorkflow',
  webhookDelivery: 'webhookDeliveryWorkflow',
  changeRequestMerge: 'changeRequestMergeWorkflow',
  duplicateSpace: 'duplicateSpaceWorkflow',
} as const;

export type CreateSpaceWorkflow = (input: CreateSpaceInput) => Promise<CreateSpaceResult>;
export type PurgeSpaceWorkflow = (input: PurgeSpaceInput) => Promise<PurgeSpaceResult>;
export type GitQueueWorkflow = (initial: GitQueueState) => Promise<void>;
export type GitOperationWorkflow = (request: GitSyncRequest) => Promise<GitOperationResult>;
export type ProcessOpenApiSpecWorkflow = (input: ProcessOpenApiSpecInput) => Promise<ProcessOpenApiSpecResult>;
export type RefreshOpenApiSpecWorkflow = (input: RefreshOpenApiSpecInput) => Promise<ProcessOpenApiSpecResult>;
export type TranslationRunsWorkflow = (input: TranslationQueueInput) => Promise<void>;
export type ApplyTemplateWorkflow = (input: ApplyTemplateInput) => Promise<ApplyTemplateResult>;
export type ContentImportWorkflow = (input: ContentImportInput) => Promise<ContentImportResult>;
export type PublishSiteWorkflow = (input: PublishSiteInput) => Promise<PublishSiteResult>;
export type PdfExportWorkflow = (input: PdfExportInput) => Promise<PdfExportResult>;
export type WebhookSubscriberWorkflow = (input: WebhookSubscriberInput) => Promise<void>;
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>;
export type ChangeRequestMergeWorkflow = (input: ChangeRequestMergeInput) => Promise<ChangeRequestMergeResult>;
export type DuplicateSpaceWorkflow = (input: DuplicateSpaceInput) => Promise<DuplicateSpaceResult>;
