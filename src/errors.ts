/**
 * Folio's typed errors, in the manner of isomorphic-git: one class per failure,
 * each with a stable machine-readable `code`. Messages never carry credentials.
 */
export class FolioError extends Error {
  readonly code: string;
  readonly data: Record<string, unknown>;
  /** Whether retrying the same operation could succeed (network blips, locks). */
  readonly retryable: boolean;

  constructor(code: string, message: string, options: { data?: Record<string, unknown>; retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.data = options.data ?? {};
    this.retryable = options.retryable ?? false;
  }
}

export class NotFoundError extends FolioError {
  constructor(what: string, id: string) {
    super('NOT_FOUND', `${what} not found: ${id}`, { data: { what, id } });
  }
}

export class ValidationError extends FolioError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('VALIDATION', message, { data });
  }
}

export class ConflictError extends FolioError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('CONFLICT', message, { data });
  }
}

export function isFolioError(err: unknown): err is FolioError {
  return err instanceof FolioError;
}
