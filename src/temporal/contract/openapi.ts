/** `openapi/<specId>/process/<n>` and the refresh schedule's workflow: inputs, results, failure codes. */
export type OpenApiProcessCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR' | 'SPEC_TOO_COMPLEX';
export const OPENAPI_PROCESS_CODES: readonly OpenApiProcessCode[] = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR', 'SPEC_TOO_COMPLEX'];

export interface ProcessOpenApiSpecInput {
  specId: string;
  organizationId: string;
  /**
   * The run number allocated by the caller: the workflow runs as `openapi/<specId>/process/<run>`. Without it
   * (a schedule created before refreshOpenApiSpecWorkflow existed), the workflow numbers a run and starts it
   * as a child, like a scheduled refresh.
   */
  run?: number;
  trigger: 'create' | 'update' | 'schedule';
  /** startToClose of the processing activity; longer than the fetch timeout (a timeout maps to FETCH_TIMEOUT). */
  processTimeoutMs: number;
  /** Pause the refresh schedule after this many consecutive failed runs (0: never). */
  pauseScheduleAfterFailures: number;
}

export interface ProcessOpenApiSpecResult {
  outcome: 'processed' | 'failed' | 'gone';
  run?: number;
  code?: OpenApiProcessCode;
  versionId?: string | null;
  versionCreated?: boolean;
  schedulePaused?: boolean;
}

/** Input of a scheduled refresh: the processing input without a run number (the refresh numbers it). */
export type RefreshOpenApiSpecInput = Omit<ProcessOpenApiSpecInput, 'run' | 'trigger'>;

/** Details carried by the typed failures of `openapiProcess` (small: a bounded list of problems). */
export interface OpenApiFailureDetails {
  errors: Array<{ location: string; message: string }>;
  errorCount: number;
}
