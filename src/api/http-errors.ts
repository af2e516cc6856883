import { FolioError } from '../errors.js';

/** An error that maps to one HTTP status. The body is `{ error: { code: <status>, message } }`. */
export class HttpError extends FolioError {
  readonly status: number;
  constructor(status: number, code: string, message: string, data: Record<string, unknown> = {}) {
    super(code, message, { data });
    this.status = status;
  }
}

export const badRequest = (message: string, data?: Record<string, unknown>) => new HttpError(400, 'BAD_REQUEST', message, data);
export const unauthorized = (message = 'a valid bearer token is required') => new HttpError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'this token has no access to that resource') => new HttpError(403, 'FORBIDDEN', message);
/** A read-scoped token on a request that is not GET or HEAD (the body's code stays the status, 403). */
export const readOnlyToken = () =>
  new HttpError(403, 'READ_ONLY_TOKEN', 'this token is read-only (READ_ONLY_TOKEN): it can read, but not write, import, export or delete');
export const notFound = (message: string) => new HttpError(404, 'NOT_FOUND', message);
/** The request is well formed but its content cannot be processed (a page too complex to parse within the budgets). */
export const unprocessable = (code: string, message: string, data?: Record<string, unknown>) => new HttpError(422, code, message, data);
export const conflict = (message: string, data?: Record<string, unknown>) => new HttpError(409, 'CONFLICT', message, data);

/** Seconds a client is asked to wait (`Retry-After`) when the database is unreachable or overloaded. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** Codes of the store's passing trouble: the database does not answer (STORE_UNAVAILABLE) or refuses for now (STORE_TRANSIENT). */
const STORE_TROUBLE = new Set(['STORE_UNAVAILABLE', 'STORE_TRANSIENT']);

/** Whether `err`, or an error it wraps (`cause`), is the store's passing trouble: the answer is 503 with `Retry-After`. */
export function isStoreTrouble(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    if (e instanceof FolioError && STORE_TROUBLE.has(e.code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The HTTP status for any error: HttpError's own, 503 for the store's passing trouble, a FolioError's code, fastify's statusCode, else 500. */
export function statusOf(err: unknown): number {
  if (err instanceof HttpError) return err.status;
  if (isStoreTrouble(err)) return 503;
  if (err instanceof FolioError) {
    switch (err.code) {
      case 'NOT_FOUND':
        return 404;
      case 'VALIDATION':
      case 'BAD_REQUEST':
        return 400;
      case 'CONFLICT':
        return 409;
      case 'FORBIDDEN':
      case 'LOCKED':
        return 403;
      case 'UNAUTHORIZED':
        return 401;
      default:
        return 500;
    }
  }
  const status = (err as { statusCode?: unknown })?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}
