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

/**
 * The list envelope of the platform API. `count` is the spec's `List.count`, "Total count of objects in the
 * list": every page's items, not this page's.
 */
export function listEnvelope<T>(items: T[], next: { page: string } | undefined, total: number) {
  return { ...(next ? { next } : {}), count: total, items };
}

/** An opaque cursor for lists served from memory (an offset, tagged so a cursor of another list is refused). */
export function encodeOffsetCursor(kind: string, offset: number): string {
  return Buffer.from(JSON.stringify([kind, offset])).toString('base64url');
}

export function decodeOffsetCursor(kind: string, page: string | undefined): number {
  if (page === undefined) return 0;
  try {
    const [k, offset] = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as [unknown, unknown];
    if (k === kind && Number.isInteger(offset) && (offset as number) >= 0) return offset as number;
  } catch {
    // fall through
  }
  throw badRequest('page is not a valid cursor for this list');
}

/** One page of an in-memory list, in the list envelope. */
export function paginateArray<T>(kind: string, all: T[], query: PageQuery) {
  const start = decodeOffsetCursor(kind, query.page);
  const items = all.slice(start, start + query.limit);
  const next = start + query.limit < all.length ? { page: encodeOffsetCursor(kind, start + query.limit) } : undefined;
  return listEnvelope(items, next, all.length);
}
