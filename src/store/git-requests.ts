/**
 * The request log (`git_sync_requests`): one row per import/export request with its latest status
 * (queued, running, succeeded, noop, failed, dropped-stale, duplicate), so operators see dropped requests too.
 */
import { NotFoundError } from '../errors.js';
import { sqlState } from './sql-helpers.js';
import type { GitRequestLogStore, Sql } from './types/index.js';

interface Row {
  request_id: string;
  direction: 'import' | 'export';
  event_at: Date;
  status: string;
  code: string | null;
  message: string | null;
  created_at: Date;
  updated_at: Date;
}

export function createGitRequestLogStore(sql: Sql): GitRequestLogStore {
  return {
    async record(spaceId, entry) {
      try {
        await sql.query(
          `INSERT INTO git_sync_requests (space_id, request_id, direction, event_at, status, code, message)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (space_id, request_id) DO UPDATE SET
             status = CASE WHEN EXCLUDED.status IN ('duplicate', 'queued') THEN git_sync_requests.status ELSE EXCLUDED.status END,
             code = CASE WHEN EXCLUDED.status IN ('duplicate', 'queued') THEN git_sync_requests.code ELSE EXCLUDED.code END,
             message = CASE WHEN EXCLUDED.status IN ('duplicate', 'queued') THEN git_sync_requests.message ELSE EXCLUDED.message END,
             updated_at = now()`,
          [
            spaceId,
            entry.requestId,
            entry.direction,
            new Date(entry.timestamp),
            entry.status,
            entry.code ?? null,
            entry.message?.replaceAll('\u0000', '') ?? null,
          ],
        );
      } catch (err) {
        if (sqlState(err) === '23503') throw new NotFoundError('space', spaceId);
        throw err;
      }
    },
    async list(spaceId, limit = 50) {
      const rows = await sql.query<Row>(
        `SELECT request_id, direction, event_at, status, code, message, created_at, updated_at FROM git_sync_requests
         WHERE space_id = $1 ORDER BY updated_at DESC, event_at DESC LIMIT $2`,
        [spaceId, limit],
      );
      return rows.map((r) => ({
        requestId: r.request_id,
        direction: r.direction,
        timestamp: new Date(r.event_at).toISOString(),
        status: r.status,
        code: r.code,
        message: r.message,
        createdAt: new Date(r.created_at),
        updatedAt: new Date(r.updated_at),
      }));
    },
  };
}
