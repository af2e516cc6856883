import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { stripCredentials } from '../redact.js';
import { json, toBytes, toDateOrNull } from './sql-helpers.js';
import { recordEvent } from './events.js';
import type { GitSyncOperation, GitSyncPatch, GitSyncState, GitSyncStore, Sql } from './types/index.js';

interface GitSyncRow {
  repo: GitSyncState['repo'];
  last_import: GitSyncState['lastImport'];
  last_export: GitSyncState['lastExport'];
  operation: GitSyncState['operation'];
  updated_at: unknown;
}

const FIELDS = { repo: 'repo', lastImport: 'last_import', lastExport: 'last_export', operation: 'operation' } as const;

function stateFromRow(spaceId: string, row: GitSyncRow | undefined): GitSyncState {
  return {
    spaceId,
    repo: row?.repo ?? null,
    lastImport: row?.last_import ?? null,
    lastExport: row?.last_export ?? null,
    operation: row?.operation ?? null,
    updatedAt: toDateOrNull(row?.updated_at),
  };
}

function checkPatch(patch: GitSyncPatch): GitSyncPatch {
  if (!patch || typeof patch !== 'object') throw new ValidationError('git sync patch must be an object');
  for (const key of Object.keys(patch)) {
    if (!(key in FIELDS)) throw new ValidationError(`unknown git sync field: ${key}`, { field: key });
    const value = (patch as Record<string, unknown>)[key];
    if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value)))
      throw new ValidationError(`git sync ${key} must be an object or null`, { field: key });
  }
  if (patch.repo) {
    if (typeof patch.repo.url !== 'string' || typeof patch.repo.ref !== 'string') throw new ValidationError('git sync repo needs a url and a ref');
    // Credentials never reach the database.
    return { ...patch, repo: { ...patch.repo, url: stripCredentials(patch.repo.url) } };
  }
  return patch;
}

/** An operation that ended (the worker records `success`, `failed`, `timeout`, … with `endedAt`). */
const ended = (op: GitSyncOperation | null) => op !== null && op.endedAt !== undefined && op.state !== 'running' && op.state !== 'pending';
/** Whether `next` ends an operation that `current` did not show ended yet (a retried recording records nothing twice). */
const newlyEnded = (current: GitSyncOperation | null, next: GitSyncOperation | null) =>
  ended(next) && !(ended(current) && current!.requestId === next!.requestId);

/** `space_gitsync_completed` (the spec's shape, with Folio's direction and warning count) when an operation ends. */
async function recordGitFinished(tx: Sql, space: { organization_id: string; revision_id: string | null }, state: GitSyncState): Promise<void> {
  const op = state.operation!;
  const mark = op.direction === 'import' ? state.lastImport : state.lastExport;
  const ours = mark !== null && (op.requestId === undefined || mark.requestId === op.requestId);
  await recordEvent(tx, {
    organizationId: space.organization_id,
    type: 'space_gitsync_completed',
    stream: state.spaceId,
    spaceId: state.spaceId,
    payload: {
      spaceId: state.spaceId,
      state: op.state === 'success' || op.state === 'succeeded' ? 'success' : 'failure',
      direction: op.direction,
      revisionId: (ours ? mark.revisionId : undefined) ?? space.revision_id ?? '',
      commitId: ours ? mark.commit : '',
      warnings: op.warnings?.total ?? 0,
      ...(op.requestId ? { requestId: op.requestId } : {}),
      ...(op.error ? { errorCode: op.error.code } : {}),
    },
  });
}

/** Per-space git sync state: repository (without credentials), last import/export marks, current operation. */
export function createGitSyncStore(sql: Sql): GitSyncStore {
  return {
    async get(spaceId) {
      const rows = await sql.query<GitSyncRow>('SELECT repo, last_import, last_export, operation, updated_at FROM git_sync WHERE space_id = $1', [spaceId]);
      return stateFromRow(spaceId, rows[0]);
    },
    async setPushSecret(spaceId, sealed) {
      if (sealed === null) {
        await sql.query('DELETE FROM git_push_secrets WHERE space_id = $1', [spaceId]);
        return;
      }
      const space = await sql.query('SELECT 1 FROM spaces WHERE id = $1', [spaceId]);
      if (space.length === 0) throw new NotFoundError('space', String(spaceId));
      await sql.query(
        `INSERT INTO git_push_secrets (space_id, sealed) VALUES ($1, $2)
         ON CONFLICT (space_id) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = now()`,
        [spaceId, sealed],
      );
    },
    async pushSecret(spaceId) {
      const rows = await sql.query<{ sealed: unknown }>('SELECT sealed FROM git_push_secrets WHERE space_id = $1', [spaceId]);
      return rows[0] ? toBytes(rows[0].sealed) : null;
    },
    async update(spaceId, patch, options = {}) {
      const clean = checkPatch(patch);
      return sql.transaction(async (tx) => {
        const space = await tx.query<{ organization_id: string; revision_id: string | null }>(
          'SELECT organization_id, revision_id FROM spaces WHERE id = $1 FOR UPDATE',
          [spaceId],
        );
        if (space.length === 0) throw new NotFoundError('space', String(spaceId));
        const rows = await tx.query<GitSyncRow>('SELECT repo, last_import, last_export, operation, updated_at FROM git_sync WHERE space_id = $1', [spaceId]);
        const current = stateFromRow(spaceId, rows[0]);
        if (options.ifOperationState !== undefined && (current.operation?.state ?? null) !== options.ifOperationState) {
          throw new ConflictError('the git sync operation state changed', {
            spaceId,
            expected: options.ifOperationState,
            actual: current.operation?.state ?? null,
          });
        }
        const next = { ...current, ...Object.fromEntries(Object.entries(clean).filter(([, v]) => v !== undefined)) };
        const saved = await tx.query<GitSyncRow>(
          `INSERT INTO git_sync (space_id, repo, last_import, last_export, operation, updated_at)
           VALUES ($1, $2::jsonb, $3::jsonb, $4::jsonb, $5::jsonb, now())
           ON CONFLICT (space_id) DO UPDATE SET repo = EXCLUDED.repo, last_import = EXCLUDED.last_import,
             last_export = EXCLUDED.last_export, operation = EXCLUDED.operation, updated_at = now()
           RETURNING repo, last_import, last_export, operation, updated_at`,
          [spaceId, json(next.repo), json(next.lastImport), json(next.lastExport), json(next.operation)],
        );
        const state = stateFromRow(spaceId, saved[0]);
        if (newlyEnded(current.operation, state.operation)) await recordGitFinished(tx, space[0]!, state);
        return state;
      });
    },
  };
}
