/**
 * Content import runs (`import_runs`) and their per-URL checkpoints (`import_run_urls`): what the API lists and
 * what a resumed website import reads instead of fetching a done URL again.
 */
import { NotFoundError } from '../errors.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { recordEvent } from './events.js';
import { newId } from './ids.js';
import { json, sqlState, toDate, toDateOrNull } from './sql-helpers.js';
import type {
  ImportRunPatch,
  ImportRunRecord,
  ImportRunSource,
  ImportRunStatus,
  ImportRunStore,
  ImportUrlRecord,
  Json,
  JsonObject,
  Sql,
  SqlParam,
} from './types/index.js';

interface RunRow {
  id: string;
  seq: string | number;
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  page_id: string | null;
  source: unknown;
  status: string;
  reason: string | null;
  code: string | null;
  revision_id: string | null;
  created_by: string | null;
  imported_resources: number;
  total_resources: number;
  current_url: string | null;
  warnings: unknown;
  created_at: unknown;
  updated_at: unknown;
  started_at: unknown;
  completed_at: unknown;
}

interface UrlRow {
  url: string;
  ord: number;
  kind: string;
  depth: number;
  status: string;
  blob_hash: string | null;
  size: string | number | null;
  content_type: string | null;
  etag: string | null;
  last_modified: string | null;
  final_url: string | null;
  analysis: unknown;
  error: string | null;
}

const RUN_COLUMNS =
  'id, seq, organization_id, space_id, change_request_id, page_id, source, status, reason, code, revision_id, created_by, imported_resources, total_resources, current_url, warnings, created_at, updated_at, started_at, completed_at';
const URL_COLUMNS = 'url, ord, kind, depth, status, blob_hash, size, content_type, etag, last_modified, final_url, analysis, error';
const FINAL: readonly ImportRunStatus[] = ['completed', 'failed', 'cancelled'];

function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

function runFromRow(row: RunRow): ImportRunRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    pageId: row.page_id,
    source: parseJson(row.source) as ImportRunSource,
    status: row.status as ImportRunStatus,
    reason: row.reason,
    code: row.code,
    revisionId: row.revision_id,
    createdBy: row.created_by,
    importedResources: Number(row.imported_resources),
    totalResources: Number(row.total_resources),
    currentUrl: row.current_url,
    warnings: (parseJson(row.warnings) as JsonObject[] | null) ?? [],
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    startedAt: toDateOrNull(row.started_at),
    completedAt: toDateOrNull(row.completed_at),
  };
}

function urlFromRow(row: UrlRow): ImportUrlRecord {
  return {
    url: row.url,
    ord: Number(row.ord),
    kind: row.kind as ImportUrlRecord['kind'],
    depth: Number(row.depth),
    status: row.status as ImportUrlRecord['status'],
    blobHash: row.blob_hash,
    size: row.size === null ? null : Number(row.size),
    contentType: row.content_type,
    etag: row.etag,
    lastModified: row.last_modified,
    finalUrl: row.final_url,
    analysis: (parseJson(row.analysis) as Json | null) ?? null,
    error: row.error,
  };
}

async function getRunById(sql: Sql, id: string): Promise<ImportRunRecord | null> {
  const rows = await sql.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM import_runs WHERE id = $1`, [id]);
  return rows[0] ? runFromRow(rows[0]) : null;
}

async function createRun(sql: Sql, input: Parameters<ImportRunStore['create']>[0]): Promise<ImportRunRecord> {
  const id = newId();
  try {
    const rows = await sql.query<RunRow>(
      `INSERT INTO import_runs (id, organization_id, space_id, change_request_id, page_id, source, status, created_by)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, 'pending', $7) RETURNING ${RUN_COLUMNS}`,
      [id, input.organizationId, input.spaceId, input.changeRequestId ?? null, input.pageId ?? null, json(input.source), input.createdBy ?? null],
    );
    return runFromRow(rows[0]!);
  } catch (err) {
    if (sqlState(err) === '23503') throw new NotFoundError('space', input.spaceId);
    throw err;
  }
}

async function listRuns(sql: Sql, organizationId: string, options: Parameters<ImportRunStore['list']>[1]): ReturnType<ImportRunStore['list']> {
  const limit = checkLimit(options);
  const after = decodeCursor('import-runs', options.page);
  const where = ['organization_id = $1'];
  const params: SqlParam[] = [organizationId];
  if (options.spaceId !== undefined) {
    params.push(options.spaceId);
    where.push(`space_id = $${params.length}`);
  }
  if (options.changeRequestId !== undefined) {
    params.push(options.changeRequestId);
    where.push(`change_request_id = $${params.length}`);
  }
  if (options.status === 'active') where.push(`status IN ('pending', 'in-progress')`);
  else if (options.status !== undefined) {
    params.push(options.status);
    where.push(`status = $${params.length}`);
  }
  const total = await countRows(sql, `import_runs WHERE ${where.join(' AND ')}`, params);
  if (after !== null) {
    params.push(after);
    where.push(`seq < $${params.length}`);
  }
  params.push(limit + 1);
  const rows = await sql.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM import_runs WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT $${params.length}`, params);
  return { ...paginate('import-runs', rows, limit, runFromRow), total };
}

/** The SET clause of a run update (`$1` is the run id). */
function runUpdateSets(id: string, patch: ImportRunPatch): { sets: string[]; params: SqlParam[] } {
  const sets: string[] = ['updated_at = now()'];
  const params: SqlParam[] = [id];
  const set = (column: string, value: SqlParam, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (patch.status !== undefined) {
    set('status', patch.status);
    if (patch.status === 'in-progress') sets.push('started_at = COALESCE(started_at, now())');
    if (FINAL.includes(patch.status)) sets.push('completed_at = now()');
  }
  if (patch.reason !== undefined) set('reason', patch.reason);
  if (patch.code !== undefined) set('code', patch.code);
  if (patch.revisionId !== undefined) set('revision_id', patch.revisionId);
  if (patch.importedResources !== undefined) set('imported_resources', patch.importedResources);
  if (patch.totalResources !== undefined) set('total_resources', patch.totalResources);
  if (patch.currentUrl !== undefined) set('current_url', patch.currentUrl);
  if (patch.warnings !== undefined) set('warnings', json(patch.warnings), '::jsonb');
  return { sets, params };
}

async function recordRunFinished(tx: Sql, run: ImportRunRecord): Promise<void> {
  await recordEvent(tx, {
    organizationId: run.organizationId,
    type: 'import_run_finished',
    stream: run.spaceId ?? `import:${run.id}`,
    spaceId: run.spaceId,
    payload: {
      importRunId: run.id,
      status: run.status,
      ...(run.spaceId ? { spaceId: run.spaceId } : {}),
      ...(run.revisionId ? { revisionId: run.revisionId } : {}),
      warnings: Array.isArray(run.warnings) ? run.warnings.length : 0,
    },
  });
}

async function updateRun(sql: Sql, id: string, patch: ImportRunPatch): Promise<ImportRunRecord> {
  const { sets, params } = runUpdateSets(id, patch);
  // A finished run keeps what it finished with; `pending` never follows `in-progress`.
  const guard = `status NOT IN ('completed', 'failed', 'cancelled')${patch.status === 'pending' ? ` AND status = 'pending'` : ''}`;
  const updated = await sql.transaction(async (tx) => {
    const rows = await tx.query<RunRow>(`UPDATE import_runs SET ${sets.join(', ')} WHERE id = $1 AND ${guard} RETURNING ${RUN_COLUMNS}`, params);
    const run = rows[0] ? runFromRow(rows[0]) : null;
    // The guard lets a run finish once: this is the one update that finished it.
    if (run && FINAL.includes(run.status)) await recordRunFinished(tx, run);
    return run;
  });
  if (updated) return updated;
  const current = await getRunById(sql, id);
  if (!current) throw new NotFoundError('import run', id);
  return current;
}

/** The runs themselves. */
function createRunMethods(sql: Sql): Pick<ImportRunStore, 'create' | 'get' | 'list' | 'update'> {
  return {
    create: (input) => createRun(sql, input),
    async get(organizationId, id) {
      const run = await getRunById(sql, id);
      return run && run.organizationId === organizationId ? run : null;
    },
    list: (organizationId, options) => listRuns(sql, organizationId, options),
    update: (id, patch) => updateRun(sql, id, patch),
  };
}

/** A run's per-URL checkpoints. */
function createUrlMethods(sql: Sql): Pick<ImportRunStore, 'addUrls' | 'recordUrl' | 'urls' | 'counts'> {
  return {
    async addUrls(runId, urls) {
      if (urls.length === 0) return [];
      const added: string[] = [];
      await sql.transaction(async (tx) => {
        // One writer at a time per run numbers the URLs (the crawl is the only writer; a resumed attempt is another).
        await tx.query('SELECT id FROM import_runs WHERE id = $1 FOR UPDATE', [runId]);
        const max = await tx.query<{ m: number | null }>('SELECT max(ord) AS m FROM import_run_urls WHERE run_id = $1', [runId]);
        let ord = Number(max[0]?.m ?? -1) + 1;
        const seen = new Set<string>();
        const fresh = urls.filter((u) => !seen.has(u.url) && seen.add(u.url));
        const known = await tx.query<{ url: string }>('SELECT url FROM import_run_urls WHERE run_id = $1 AND url = ANY($2::text[])', [
          runId,
          fresh.map((u) => u.url),
        ]);
        const knownSet = new Set(known.map((k) => k.url));
        for (const u of fresh) {
          if (knownSet.has(u.url)) continue;
          await tx.query('INSERT INTO import_run_urls (run_id, url, ord, kind, depth) VALUES ($1, $2, $3, $4, $5)', [runId, u.url, ord++, u.kind, u.depth]);
          added.push(u.url);
        }
      });
      return added;
    },
    async recordUrl(runId, url, result) {
      await sql.query(
        `UPDATE import_run_urls SET status = $3, blob_hash = $4, size = $5, content_type = $6, etag = $7, last_modified = $8, final_url = $9,
           analysis = $10::jsonb, error = $11, fetched_at = now()
         WHERE run_id = $1 AND url = $2`,
        [
          runId,
          url,
          result.status,
          result.blobHash ?? null,
          result.size ?? null,
          result.contentType ?? null,
          result.etag ?? null,
          result.lastModified ?? null,
          result.finalUrl ?? null,
          json(result.analysis ?? null),
          result.error ?? null,
        ],
      );
    },
    async urls(runId, filter = {}) {
      const where = ['run_id = $1'];
      const params: SqlParam[] = [runId];
      if (filter.status) {
        params.push(filter.status);
        where.push(`status = $${params.length}`);
      }
      if (filter.kind) {
        params.push(filter.kind);
        where.push(`kind = $${params.length}`);
      }
      const rows = await sql.query<UrlRow>(`SELECT ${URL_COLUMNS} FROM import_run_urls WHERE ${where.join(' AND ')} ORDER BY ord`, params);
      return rows.map(urlFromRow);
    },
    async counts(runId) {
      const rows = await sql.query<{ pages: string; assets: string; done: string; total: string; bytes: string | null }>(
        `SELECT count(*) FILTER (WHERE kind = 'page') AS pages, count(*) FILTER (WHERE kind = 'asset') AS assets,
                count(*) FILTER (WHERE status <> 'pending') AS done, count(*) AS total, sum(size) AS bytes
           FROM import_run_urls WHERE run_id = $1`,
        [runId],
      );
      const r = rows[0]!;
      return { pages: Number(r.pages), assets: Number(r.assets), done: Number(r.done), total: Number(r.total), bytes: Number(r.bytes ?? 0) };
    },
  };
}

export function createImportRunStore(sql: Sql): ImportRunStore {
  return { ...createRunMethods(sql), ...createUrlMethods(sql) };
}
