import { badRequest } from './http-errors.js';

export interface PageQuery {
  limit: number;
  page?: string;
}

/** Reads `limit` (1..1000, default 100) and `page` (an opaque cursor) from a query string. */
export function pageQuery(query: Record<string, unknown>): PageQuery {
  const raw = query.limit;
  let limit = 100;
  if (raw !== undefined && raw !== '') {
    limit = Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw badRequest('limit must be an integer from 1 to 1000');
  }
  const page = typeof query.page === 'string' && query.page !== '' ? query.page : undefined;
  return { limit, page };
}

/** The list envelope of the platform API. */
export function listEnvelope<T>(items: T[], next: { page: string } | undefined) {
  return { ...(next ? { next } : {}), count: items.length, items };
}
