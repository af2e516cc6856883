import { ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
import { isFolioError } from '../src/errors.js';
import { runPdfExport } from '../src/pdf/export.js';
import type { PdfExportInput, PdfExportResult } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { parsePoolOf } from './parse-pool.js';

/** The activities of `space/<id>/pdf/<exportId>/<attempt>`: the print run (src/pdf/export.ts) and its failure record. */
export function createPdfActivities(deps: ActivityDeps) {
  return {
    /** Renders and prints the export, stores the PDF as a blob. Idempotent: a finished export is returned as it is. */
    async pdfExportActivity(input: PdfExportInput): Promise<PdfExportResult> {
      try {
        const { record, warnings } = await runPdfExport(
          {
            store: deps.store,
            render: (page) => parsePoolOf(deps).run('publish.render', page),
            logger: deps.logger,
            chromiumPath: deps.config.chromiumPath,
            budgetMs: deps.config.pdfBudgetMs,
            progress: (step, done, total) => heartbeat({ step, done, total }),
            signal: Context.current().cancellationSignal,
          },
          input,
        );
        return { exportId: record.id, status: record.status, pages: record.pages, pdfPages: record.pdfPages, warningCount: warnings.length };
      } catch (err) {
        if (isFolioError(err)) throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: !err.retryable });
        throw err;
      }
    },
    /** Records a failed run on the export (the attempt's, once). */
    async pdfExportFailedActivity(input: PdfExportInput & { code: string; message: string }): Promise<void> {
      await deps.store.pdfExports.fail(input.exportId, input.attempt, { code: input.code, message: input.message });
    },
  };
}
