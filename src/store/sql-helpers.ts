import type { Sql, SqlParam } from './types/index.js';

/**
 * Parameters per INSERT statement (PostgreSQL allows 65535). The server plans the whole VALUES list at once, and
 * the embedded database keeps whatever memory a statement made it grow: at 30,000 parameters, storing a 5,000-page
 * revision raised its RSS by 130 MB; at 2,000 by under 40 MB, and it was no slower (a few more round trips).
 */
const MAX_PARAMS = 2000;

/**
 * INSERT of many rows as multi-row VALUES, in chunks under the parameter limit. `casts` gives an
 * optional cast per column (e.g. `jsonb`). `suffix` is appended (e.g. `ON CONFLICT DO NOTHING`).
 */
export async function insertRows(
  sql: Sql,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlParam[])[],
  options: { casts?: readonly (string | undefined)[]; suffix?: string } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let start = 0; start < rows.length; start += per) {
    const chunk = rows.slice(start, start + per);
    const params: SqlParam[] = [];
    const tuples = chunk.map((row) => {
      const cells = row.map((value, i) => {
        params.push(value);
        const cast = options.casts?.[i];
        return cast ? `$${params.length}::${cast}` : `$${params.length}`;
      });
      return `(${cells.join(', ')})`;
    });
    await sql.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}${options.suffix ? ` ${options.suffix}` : ''}`, params);
  }
}

/**
 * A JSON value as a `$n::jsonb` parameter (pg would turn JS arrays into PostgreSQL arrays). A NUL in a string is
 * dropped: jsonb refuses `\u0000`, and a message that carried one (a remote's words) must not make the write fail.
 */
export function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? v.replaceAll('\u0000', '') : v));
}

export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

export function toDateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

/** bytea as Uint8Array (pg gives Buffers, which are Uint8Arrays; PGlite gives Uint8Arrays). */
export function toBytes(value: unknown): Uint8Array {
  // A plain Uint8Array view either way, so callers see one type.
  if (Buffer.isBuffer(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof Uint8Array) return value;
  throw new TypeError('expected bytea');
}

/** PostgreSQL error code (SQLSTATE) of a driver error, if any. */
export function sqlState(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
