import { FolioError } from '../../errors.js';

/**
 * A workflow Folio waited for failed with a typed failure: `code` is the failure's type (`NOT_FOUND`,
 * `CONFLICT`, …), so callers outside `src/temporal/` act on it without knowing Temporal's failure classes.
 */
export class WorkflowRunError extends FolioError {
  constructor(code: string, message: string, cause: unknown, data: Record<string, unknown> = {}) {
    super(code, message, { cause, retryable: false, data });
  }
}
