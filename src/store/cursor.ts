import { ValidationError } from '../errors.js';
import type { PageOptions, Sql, SqlParam } from './types/index.js';

/**
 * Opaque keyset cursors: base64url of `{ k: kind, s: seq }`. `seq` is the row's bigserial, so pages are
 * stable while rows are added. A cursor of another list, or garbage, is a ValidationError.
 */
export function encodeCursor(kind: string, seq: number): string {
  return Buffer.from(JSON.stringify({ k: kind, s: seq })).toString('base64url');
}

export function decodeCursor(kind: string, page: string | undefined): number | null {
  if (page === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const value = parsed as { k?: unknown; s?: unknown } | null;
  if (!value || value.k !== kind || typeof value.s !== 'number' || !Number.isSafeInteger(value.s)) {
    throw new ValidationError('invalid page cursor', { page: page.slice(0, 100) });
  }
  return value.s;
}

export function checkLimit(options: PageOptions): number {
  const { limit } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new ValidationError('limit must be an integer from 1 to 1000', { limit });
  return limit;
}

/** Given `limit + 1` rows fetched, the page and its `next` cursor. */
export function paginate<R extends { seq: unknown }, T>(kind: string, rows: R[], limit: number, map: (row: R) => T): { items: T[]; next?: { page: string } } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const items = page.map(map);
  if (!more) return { items };
  return { items, next: { page: encodeCursor(kind, Number(page[page.length - 1]!.seq)) } };
}

/** How many rows `FROM <fromWhere>` holds: a list's total over every page (the cursor's condition left out). */
export async function countRows(sql: Sql, fromWhere: string, params: readonly SqlParam[]): Promise<number> {
  const rows = await sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${fromWhere}`, params);
  return Number(rows[0]?.n ?? 0);
}
