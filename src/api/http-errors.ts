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

/** The HTTP status for any error: HttpError's own, a FolioError's code, fastify's statusCode, else 500. */
export function statusOf(err: unknown): number {
  if (err instanceof HttpError) return err.status;
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
