import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { checkSlug, checkSource, checkVisibility } from './openapi-input.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { recordEvent } from './events.js';
import { checkId, newId } from './ids.js';
import { json, sqlState, toDate, toDateOrNull } from './sql-helpers.js';
import type {
  BlobStore,
  OpenApiErrorCode,
  OpenApiSpecRecord,
  OpenApiStore,
  OpenApiVersionContent,
  OpenApiVersionRecord,
  ProcessedSpecVersion,
  ProcessingState,
  SpecInfo,
  SpecProblem,
  SpecSourceInput,
  SpecVisibility,
  Sql,
} from './types/index.js';

interface SpecRow {
  id: string;
  seq: string | number;
  organization_id: string;
  slug: string;
  source_url: string | null;
  source_text_hash: string | null;
  processing_state: string;
  visibility: string;
  last_version_id: string | null;
  last_processed_at: unknown;
  last_process_error_code: string | null;
  last_processed_errors: unknown;
  last_processed_error_count: number;
  consecutive_failures: number;
  process_runs: number;
  applied_run: number;
  created_at: unknown;
  updated_at: unknown;
}

interface VersionRow {
  id: string;
  seq: string | number;
  spec_id: string;
  content_hash: string;
  content_blob: string;
  root_path: string;
  source_url: string | null;
  info: unknown;
  size: string | number;
  run: number;
  created_at: unknown;
}

const SPEC_COLUMNS =
  'id, seq, organization_id, slug, source_url, source_text_hash, processing_state, visibility, last_version_id, last_processed_at, last_process_error_code, last_processed_errors, last_processed_error_count, consecutive_failures, process_runs, applied_run, created_at, updated_at';
const VERSION_COLUMNS = 'id, seq, spec_id, content_hash, content_blob, root_path, source_url, info, size, run, created_at';

function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

function specFromRow(row: SpecRow): OpenApiSpecRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    slug: row.slug,
    source: row.source_url !== null ? { kind: 'url', url: row.source_url } : { kind: 'text', textHash: row.source_text_hash! },
    processingState: row.processing_state as ProcessingState,
    visibility: row.visibility as SpecVisibility,
    lastVersionId: row.last_version_id,
    lastProcessedAt: toDateOrNull(row.last_processed_at),
    lastProcessErrorCode: row.last_process_error_code as OpenApiErrorCode | null,
    lastProcessedErrors: (parseJson(row.last_processed_errors) as SpecProblem[] | null) ?? [],
    lastProcessedErrorCount: Number(row.last_processed_error_count),
    consecutiveFailures: Number(row.consecutive_failures),
    processRuns: Number(row.process_runs),
    appliedRun: Number(row.applied_run),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

function versionFromRow(row: VersionRow): OpenApiVersionRecord {
  return {
    id: row.id,
    specId: row.spec_id,
    contentHash: row.content_hash,
    contentBlob: row.content_blob,
    rootPath: row.root_path,
    sourceUrl: row.source_url,
    info: parseJson(row.info) as SpecInfo,
    size: Number(row.size),
    run: Number(row.run),
    createdAt: toDate(row.created_at),
  };
}

/** `{ rootPath, filesystem }` with the files in path order, so equal content gives equal bytes. */
function serializeContent(rootPath: string, filesystem: Record<string, string>): Uint8Array {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(filesystem).sort()) sorted[key] = filesystem[key]!;
  return Buffer.from(JSON.stringify({ rootPath, filesystem: sorted }), 'utf8');
}

/** Raised inside a transaction when the version blob has to be stored first (outside it); the caller retries. */
class NeedsBlob extends Error {}

async function loadSpec(tx: Sql, id: string, lock = false): Promise<SpecRow | null> {
  if (typeof id !== 'string' || id === '') return null;
  const rows = await tx.query<SpecRow>(`SELECT ${SPEC_COLUMNS} FROM openapi_specs WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] ?? null;
}

async function loadVersion(tx: Sql, versionId: string | null): Promise<VersionRow | null> {
  if (!versionId) return null;
  const rows = await tx.query<VersionRow>(`SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE id = $1`, [versionId]);
  return rows[0] ?? null;
}

async function mustLoadSpec(tx: Sql, id: string, lock = false): Promise<SpecRow> {
  const row = await loadSpec(tx, id, lock);
  if (!row) throw new NotFoundError('openapi spec', String(id));
  return row;
}

/** The columns of a source; a text source is stored as a blob first. */
async function sourceColumns(blobs: BlobStore, source: SpecSourceInput): Promise<{ url: string | null; textHash: string | null }> {
  if ('url' in source) return { url: source.url, textHash: null };
  return { url: null, textHash: await blobs.put(Buffer.from(source.text, 'utf8')) };
}

function checkRun(run: number): number {
  if (!Number.isSafeInteger(run) || run < 1) throw new ValidationError('run must be a positive integer', { run });
  return run;
}

async function createSpec(sql: Sql, blobs: BlobStore, organizationId: string, input: Parameters<OpenApiStore['create']>[1]): Promise<OpenApiSpecRecord> {
  const id = input.id === undefined ? newId() : checkId('openapi spec', input.id);
  const slug = checkSlug(input.slug);
  const source = checkSource(input.source);
  const visibility = input.visibility === undefined ? 'private' : checkVisibility(input.visibility);
  const cols = await sourceColumns(blobs, source);
  try {
    const rows = await sql.query<SpecRow>(
      `INSERT INTO openapi_specs (id, organization_id, slug, source_url, source_text_hash, visibility)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${SPEC_COLUMNS}`,
      [id, organizationId, slug, cols.url, cols.textHash, visibility],
    );
    return specFromRow(rows[0]!);
  } catch (err) {
    const state = sqlState(err);
    if (state === '23505') throw new ConflictError(`an OpenAPI spec with slug ${slug} (or id ${id}) already exists`, { slug, id });
    if (state === '23503') throw new NotFoundError('organization', organizationId);
    throw err;
  }
}

type SuccessOutcome = Awaited<ReturnType<OpenApiStore['recordSuccess']>>;

/**
 * The transaction of a successful run: ignored for an old run, a new version when the content is new (NeedsBlob
 * when its blob was not stored beforehand), then the spec's state and an event.
 */
async function applySuccess(
  tx: Sql,
  run: { id: string; run: number; result: ProcessedSpecVersion; blobHash: string | null; size: number },
): Promise<SuccessOutcome> {
  const { id, result, blobHash } = run;
  const row = await mustLoadSpec(tx, id, true);
  if (run.run <= Number(row.applied_run)) {
    const lastRow = await loadVersion(tx, row.last_version_id);
    return { spec: specFromRow(row), version: lastRow ? versionFromRow(lastRow) : null, created: false, applied: false };
  }
  let version = await loadVersion(tx, row.last_version_id);
  let created = false;
  if (version?.content_hash !== result.hash) {
    if (blobHash === null) throw new NeedsBlob();
    const rows = await tx.query<VersionRow>(
      `INSERT INTO openapi_spec_versions (id, spec_id, content_hash, content_blob, root_path, source_url, info, size, run)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) RETURNING ${VERSION_COLUMNS}`,
      [newId(), id, result.hash, blobHash, result.rootPath, result.url ?? null, json(result.info), run.size, run.run],
    );
    version = rows[0]!;
    created = true;
  }
  const updated = await tx.query<SpecRow>(
    `UPDATE openapi_specs SET last_version_id = $2, last_processed_at = now(), last_process_error_code = NULL,
            last_processed_errors = $3::jsonb, last_processed_error_count = $4, consecutive_failures = 0, applied_run = $5,
            processing_state = CASE WHEN $5 >= process_runs THEN 'complete' ELSE processing_state END, updated_at = now()
      WHERE id = $1 RETURNING ${SPEC_COLUMNS}`,
    [id, version.id, json(result.warnings) ?? '[]', result.warningCount, run.run],
  );
  await recordEvent(tx, {
    organizationId: row.organization_id,
    type: 'openapi_spec_processed',
    stream: `openapi:${id}`,
    payload: { specId: id, slug: row.slug, state: 'success', versionId: version.id, newVersion: created, warnings: result.warningCount },
  });
  return { spec: specFromRow(updated[0]!), version: versionFromRow(version), created, applied: true };
}

async function recordSuccess(sql: Sql, blobs: BlobStore, id: string, run: number, result: ProcessedSpecVersion): Promise<SuccessOutcome> {
  checkRun(run);
  const content = serializeContent(result.rootPath, result.filesystem);
  let blobHash: string | null = null;
  // Store the blob only when the content is new to this spec; the transaction re-checks under lock.
  const current = await loadSpec(sql, id);
  if (!current) throw new NotFoundError('openapi spec', String(id));
  const last = await loadVersion(sql, current.last_version_id);
  if (last?.content_hash !== result.hash) blobHash = await blobs.put(content);
  for (let attempt = 0; ; attempt++) {
    try {
      const hash = blobHash;
      return await sql.transaction((tx) => applySuccess(tx, { id, run, result, blobHash: hash, size: content.length }));
    } catch (err) {
      if (!(err instanceof NeedsBlob) || attempt > 0) throw err;
      blobHash = await blobs.put(content);
    }
  }
}

/** A spec's identity, source and visibility. */
function createSpecMethods(
  sql: Sql,
  blobs: BlobStore,
): Pick<OpenApiStore, 'create' | 'get' | 'getBySlug' | 'list' | 'setSource' | 'setVisibility' | 'delete' | 'sourceOf'> {
  return {
    create: (organizationId, input) => createSpec(sql, blobs, organizationId, input),
    async get(id) {
      const row = await loadSpec(sql, id);
      return row ? specFromRow(row) : null;
    },
    async getBySlug(organizationId, slug) {
      if (typeof slug !== 'string') return null;
      const rows = await sql.query<SpecRow>(`SELECT ${SPEC_COLUMNS} FROM openapi_specs WHERE organization_id = $1 AND slug = $2`, [organizationId, slug]);
      return rows[0] ? specFromRow(rows[0]) : null;
    },
    async list(organizationId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('openapi-specs', options.page);
      const rows =
        after === null
          ? await sql.query<SpecRow>(`SELECT ${SPEC_COLUMNS} FROM openapi_specs WHERE organization_id = $1 ORDER BY seq LIMIT $2`, [organizationId, limit + 1])
          : await sql.query<SpecRow>(`SELECT ${SPEC_COLUMNS} FROM openapi_specs WHERE organization_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [
              organizationId,
              after,
              limit + 1,
            ]);
      const total = await countRows(sql, 'openapi_specs WHERE organization_id = $1', [organizationId]);
      return { ...paginate('openapi-specs', rows, limit, specFromRow), total };
    },
    async setSource(id, input) {
      const source = checkSource(input);
      const cols = await sourceColumns(blobs, source);
      return await sql.transaction(async (tx) => {
        const row = await mustLoadSpec(tx, id, true);
        const changed = row.source_url !== cols.url || row.source_text_hash !== cols.textHash;
        if (!changed) return { spec: specFromRow(row), changed };
        const rows = await tx.query<SpecRow>(
          `UPDATE openapi_specs SET source_url = $2, source_text_hash = $3, updated_at = now() WHERE id = $1 RETURNING ${SPEC_COLUMNS}`,
          [id, cols.url, cols.textHash],
        );
        return { spec: specFromRow(rows[0]!), changed };
      });
    },
    async setVisibility(id, visibility) {
      const value = checkVisibility(visibility);
      const rows = await sql.query<SpecRow>(`UPDATE openapi_specs SET visibility = $2, updated_at = now() WHERE id = $1 RETURNING ${SPEC_COLUMNS}`, [
        id,
        value,
      ]);
      if (!rows[0]) throw new NotFoundError('openapi spec', String(id));
      return specFromRow(rows[0]);
    },
    async delete(id) {
      const rows = await sql.query('DELETE FROM openapi_specs WHERE id = $1 RETURNING id', [id]);
      return rows.length > 0;
    },
    async sourceOf(spec) {
      if (spec.source.kind === 'url') return { url: spec.source.url };
      const bytes = await blobs.get(spec.source.textHash);
      if (!bytes) throw new NotFoundError('openapi spec source text', spec.source.textHash);
      return { text: Buffer.from(bytes).toString('utf8') };
    },
  };
}

/** Processing runs: numbered, then recorded once (a late outcome of an older run is ignored). */
function createRunMethods(sql: Sql, blobs: BlobStore): Pick<OpenApiStore, 'startRun' | 'abandonRun' | 'markProgress' | 'recordSuccess' | 'recordFailure'> {
  return {
    async startRun(id) {
      const rows = await sql.query<SpecRow>(
        `UPDATE openapi_specs SET process_runs = process_runs + 1, processing_state = 'pending', updated_at = now() WHERE id = $1 RETURNING ${SPEC_COLUMNS}`,
        [id],
      );
      if (!rows[0]) throw new NotFoundError('openapi spec', String(id));
      return { spec: specFromRow(rows[0]), run: Number(rows[0].process_runs) };
    },
    async abandonRun(id, run) {
      checkRun(run);
      const rows = await sql.query<SpecRow>(
        `UPDATE openapi_specs SET applied_run = GREATEST(applied_run, $2),
                processing_state = CASE WHEN $2 >= process_runs AND last_processed_at IS NOT NULL THEN 'complete' ELSE processing_state END,
                updated_at = now()
          WHERE id = $1 RETURNING ${SPEC_COLUMNS}`,
        [id, run],
      );
      if (!rows[0]) throw new NotFoundError('openapi spec', String(id));
      return specFromRow(rows[0]);
    },
    async markProgress(id, run) {
      checkRun(run);
      const rows = await sql.query<SpecRow>(
        `UPDATE openapi_specs SET processing_state = CASE WHEN $2 > applied_run THEN 'progress' ELSE processing_state END, updated_at = now()
          WHERE id = $1 RETURNING ${SPEC_COLUMNS}`,
        [id, run],
      );
      if (!rows[0]) throw new NotFoundError('openapi spec', String(id));
      return specFromRow(rows[0]);
    },
    recordSuccess: (id, run, result) => recordSuccess(sql, blobs, id, run, result),
    async recordFailure(id, run, failure) {
      checkRun(run);
      return await sql.transaction(async (tx) => {
        const row = await mustLoadSpec(tx, id, true);
        if (run <= Number(row.applied_run)) return { spec: specFromRow(row), applied: false };
        const updated = await tx.query<SpecRow>(
          `UPDATE openapi_specs SET last_processed_at = now(), last_process_error_code = $2, last_processed_errors = $3::jsonb,
                  last_processed_error_count = $4, consecutive_failures = consecutive_failures + 1, applied_run = $5,
                  processing_state = CASE WHEN $5 >= process_runs THEN 'complete' ELSE processing_state END, updated_at = now()
            WHERE id = $1 RETURNING ${SPEC_COLUMNS}`,
          [id, failure.code, json(failure.errors) ?? '[]', failure.errorCount, run],
        );
        await recordEvent(tx, {
          organizationId: row.organization_id,
          type: 'openapi_spec_processed',
          stream: `openapi:${id}`,
          payload: { specId: id, slug: row.slug, state: 'failure', errorCode: failure.code, errors: failure.errorCount },
        });
        return { spec: specFromRow(updated[0]!), applied: true };
      });
    },
  };
}

/** The stored versions of a spec. */
function createVersionMethods(sql: Sql, blobs: BlobStore): Pick<OpenApiStore, 'listVersions' | 'getVersion' | 'latestVersion' | 'versionContent'> {
  return {
    async listVersions(specId, options) {
      const limit = checkLimit(options);
      const before = decodeCursor('openapi-versions', options.page);
      const rows =
        before === null
          ? await sql.query<VersionRow>(`SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = $1 ORDER BY seq DESC LIMIT $2`, [
              specId,
              limit + 1,
            ])
          : await sql.query<VersionRow>(`SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`, [
              specId,
              before,
              limit + 1,
            ]);
      const total = await countRows(sql, 'openapi_spec_versions WHERE spec_id = $1', [specId]);
      return { ...paginate('openapi-versions', rows, limit, versionFromRow), total };
    },
    async getVersion(specId, versionId) {
      if (typeof versionId !== 'string') return null;
      const rows = await sql.query<VersionRow>(`SELECT ${VERSION_COLUMNS} FROM openapi_spec_versions WHERE spec_id = $1 AND id = $2`, [specId, versionId]);
      return rows[0] ? versionFromRow(rows[0]) : null;
    },
    async latestVersion(specId) {
      const rows = await sql.query<VersionRow>(
        `SELECT ${VERSION_COLUMNS.split(', ')
          .map((c) => `v.${c}`)
          .join(', ')} FROM openapi_specs s JOIN openapi_spec_versions v ON v.id = s.last_version_id WHERE s.id = $1`,
        [specId],
      );
      return rows[0] ? versionFromRow(rows[0]) : null;
    },
    async versionContent(version) {
      const bytes = await blobs.get(version.contentBlob);
      if (!bytes) throw new NotFoundError('openapi spec version content', version.id);
      const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as OpenApiVersionContent;
      return { rootPath: parsed.rootPath, filesystem: parsed.filesystem };
    },
  };
}

/**
 * OpenAPI specifications (`openapi_specs`) and their versions (`openapi_spec_versions`, migration 003).
 * Content never lives in rows: every version's files are one blob.
 */
export function createOpenApiStore(sql: Sql, blobs: BlobStore): OpenApiStore {
  return { ...createSpecMethods(sql, blobs), ...createRunMethods(sql, blobs), ...createVersionMethods(sql, blobs) };
}
