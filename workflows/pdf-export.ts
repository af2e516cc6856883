import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { PdfExportInput, PdfExportResult } from '../src/temporal/contract/index.js';
import { classifyFailure } from './failure.js';

const NON_RETRYABLE = ['NOT_FOUND', 'PDF_PAGE_NOT_FOUND', 'PDF_NOTHING_TO_PRINT', 'PDF_TOO_LARGE', 'PDF_REVISION_MISSING', 'PDF_BUDGET_EXCEEDED', 'CANCELLED'];

const { pdfExportActivity } = proxyActivities<Activities>({
  startToCloseTimeout: '65 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 3, nonRetryableErrorTypes: NON_RETRYABLE },
});

const { pdfExportFailedActivity } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/**
 * `space/<spaceId>/pdf/<exportId>/<attempt>`: prints the export (activities/pdf.ts over src/pdf/). A run that fails
 * records its failure on the export (which the download URL then answers) and fails in Temporal too.
 */
export async function pdfExportWorkflow(input: PdfExportInput): Promise<PdfExportResult> {
  if (!input?.exportId || !input.organizationId) throw ApplicationFailure.nonRetryable('exportId and organizationId are required', 'BAD_INPUT');
  try {
    return await pdfExportActivity(input);
  } catch (err) {
    const failure = classifyFailure(err);
    const code = failure.kind === 'application' ? (failure.type ?? 'PDF_FAILED') : failure.kind === 'timeout' ? 'PDF_TIMEOUT' : 'PDF_FAILED';
    const message = failure.kind === 'cancelled' ? 'the PDF export was cancelled' : failure.kind === 'other' ? failure.causeMessage : failure.message;
    await pdfExportFailedActivity({ ...input, code, message });
    throw err;
  }
}
