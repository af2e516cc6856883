import { NotFoundError, ValidationError } from '../errors.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { recordEvent } from './events.js';
import { newId } from './ids.js';
import { insertRows, json, sqlState, toDate, toDateOrNull } from './sql-helpers.js';
import type {
  GlossaryEntryRecord,
  JsonObject,
  MemoryKey,
  Sql,
  TranslationRecord,
  TranslationRunProgress,
  TranslationRunRecord,
  TranslationRunStatus,
  TranslationStore,
} from './types/index.js';

interface TranslationRow {
  id: string;
  seq: string | number;
  organization_id: string;
  source_space_id: string;
  source_language: string;
  language: string;
  instructions: unknown;
  result_space_id: string | null;
  result_revision_id: string | null;
  status: string;
  runs_requested: number;
  created_at: unknown;
  updated_at: unknown;
}

interface RunRow {
  translation_id: string;
  run: number;
  input_key: string | null;
  status: string;
  engine: string;
  source_revision_id: string | null;
  result_revision_id: string | null;
  pages_total: number;
  pages_done: number;
  segments_total: number;
  segments_done: number;
  segments_sent: number;
  segments_from_memory: number;
  words: number;
  pages_translated: number;
  warnings: unknown;
  error_code: string | null;
  error_message: string | null;
  started_at: unknown;
  finished_at: unknown;
}

interface EntryRow {
  id: string;
  seq: string | number;
  organization_id: string;
  translations: unknown;
  created_at: unknown;
  updated_at: unknown;
}

const COLUMNS =
  'id, seq, organization_id, source_space_id, source_language, language, instructions, result_space_id, result_revision_id, status, runs_requested, created_at, updated_at';
const RUN_COLUMNS =
  'translation_id, run, status, engine, source_revision_id, result_revision_id, pages_total, pages_done, segments_total, segments_done, segments_sent, segments_from_memory, words, pages_translated, warnings, error_code, error_message, started_at, finished_at, input_key';
const ENTRY_COLUMNS = 'id, seq, organization_id, translations, created_at, updated_at';

const PROGRESS_COLUMNS: Record<keyof TranslationRunProgress, string> = {
  engine: 'engine',
  sourceRevisionId: 'source_revision_id',
  pagesTotal: 'pages_total',
  pagesDone: 'pages_done',
  segmentsTotal: 'segments_total',
  segmentsDone: 'segments_done',
  segmentsSent: 'segments_sent',
  segmentsFromMemory: 'segments_from_memory',
  words: 'words',
  pagesTranslated: 'pages_translated',
  inputKey: 'input_key',
};

function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

function fromRow(row: TranslationRow): TranslationRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    sourceSpaceId: row.source_space_id,
    sourceLanguage: row.source_language,
    language: row.language,
    instructions: (parseJson(row.instructions) as JsonObject | null) ?? null,
    resultSpaceId: row.result_space_id,
    resultRevisionId: row.result_revision_id,
    status: row.status as TranslationRunStatus,
    runsRequested: Number(row.runs_requested),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

function runFromRow(row: RunRow): TranslationRunRecord {
  return {
    translationId: row.translation_id,
    run: Number(row.run),
    status: row.status as TranslationRunStatus,
    engine: row.engine,
    sourceRevisionId: row.source_revision_id,
    resultRevisionId: row.result_revision_id,
    pagesTotal: Number(row.pages_total),
    pagesDone: Number(row.pages_done),
    segmentsTotal: Number(row.segments_total),
    segmentsDone: Number(row.segments_done),
    segmentsSent: Number(row.segments_sent),
    segmentsFromMemory: Number(row.segments_from_memory),
    words: Number(row.words),
    pagesTranslated: Number(row.pages_translated),
    warnings: (parseJson(row.warnings) as TranslationRunRecord['warnings'] | null) ?? [],
    inputKey: row.input_key ?? null,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    startedAt: toDate(row.started_at),
    finishedAt: toDateOrNull(row.finished_at),
  };
}

function entryFromRow(row: EntryRow): GlossaryEntryRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    translations: parseJson(row.translations) as Record<string, string>,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/** The key of a memory entry as one string: `hash|pair|glossaryVersion`. */
export function memoryKeyString(key: MemoryKey): string {
  return `${key.segmentHash}|${key.languagePair}|${key.glossaryVersion}`;
}

/** Translations, runs, glossary and memory (migration 009). */
/** `translation_run_finished` in the run's transaction (the translation's stream). */
async function recordTranslationEvent(tx: Sql, id: string, run: number, state: 'completed' | 'failed', warnings: number, errorCode?: string) {
  const [t] = await tx.query<{ organization_id: string; result_space_id: string | null }>(
    'SELECT organization_id, result_space_id FROM translations WHERE id = $1',
    [id],
  );
  if (!t) return;
  await recordEvent(tx, {
    organizationId: t.organization_id,
    type: 'translation_run_finished',
    stream: `translation:${id}`,
    payload: {
      translationId: id,
      run,
      state,
      warnings,
      ...(t.result_space_id ? { resultSpaceId: t.result_space_id } : {}),
      ...(errorCode ? { errorCode } : {}),
    },
  });
}

async function mustRun(tx: Sql, id: string, run: number): Promise<RunRow> {
  const rows = await tx.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM translation_runs WHERE translation_id = $1 AND run = $2`, [id, run]);
  if (!rows[0]) throw new NotFoundError('translation run', `${id}/${run}`);
  return rows[0];
}

/** Translations themselves: create, read, list, instructions, delete, run requests and the result space. */
function createTranslationRecordStore(
  sql: Sql,
): Pick<TranslationStore, 'create' | 'get' | 'list' | 'setInstructions' | 'delete' | 'requestRun' | 'setResultSpace'> {
  return {
    async create(organizationId, input) {
      try {
        const rows = await sql.query<TranslationRow>(
          `INSERT INTO translations (id, organization_id, source_space_id, source_language, language, instructions)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING ${COLUMNS}`,
          [newId(), organizationId, input.sourceSpaceId, input.sourceLanguage, input.language, json(input.instructions ?? null)],
        );
        return fromRow(rows[0]!);
      } catch (err) {
        if (sqlState(err) === '23503') throw new NotFoundError('organization', organizationId);
        throw err;
      }
    },

    async get(organizationId, id) {
      if (typeof id !== 'string' || id === '') return null;
      const rows = await sql.query<TranslationRow>(`SELECT ${COLUMNS} FROM translations WHERE id = $1 AND organization_id = $2`, [id, organizationId]);
      return rows[0] ? fromRow(rows[0]) : null;
    },

    async list(organizationId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('translations', options.page) ?? 0;
      const rows = await sql.query<TranslationRow>(`SELECT ${COLUMNS} FROM translations WHERE organization_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [
        organizationId,
        after,
        limit + 1,
      ]);
      const total = await countRows(sql, 'translations WHERE organization_id = $1', [organizationId]);
      return { ...paginate('translations', rows, limit, fromRow), total };
    },

    async setInstructions(organizationId, id, instructions) {
      const rows = await sql.query<TranslationRow>(
        `UPDATE translations SET instructions = $3::jsonb, updated_at = now() WHERE id = $1 AND organization_id = $2 RETURNING ${COLUMNS}`,
        [id, organizationId, json(instructions)],
      );
      if (!rows[0]) throw new NotFoundError('translation', id);
      return fromRow(rows[0]);
    },

    async delete(organizationId, id) {
      const rows = await sql.query<{ id: string }>(`DELETE FROM translations WHERE id = $1 AND organization_id = $2 RETURNING id`, [id, organizationId]);
      return rows.length > 0;
    },

    async requestRun(organizationId, id) {
      const rows = await sql.query<TranslationRow>(
        `UPDATE translations SET runs_requested = runs_requested + 1,
           status = CASE WHEN status = 'running' THEN status ELSE 'pending' END, updated_at = now()
         WHERE id = $1 AND organization_id = $2 RETURNING ${COLUMNS}`,
        [id, organizationId],
      );
      if (!rows[0]) throw new NotFoundError('translation', id);
      return fromRow(rows[0]);
    },

    async setResultSpace(id, spaceId, options = {}) {
      const rows = await sql.query<{ result_space_id: string | null }>(
        `UPDATE translations SET result_space_id = ${options.replace ? '$2' : 'COALESCE(result_space_id, $2)'}, updated_at = now() WHERE id = $1 RETURNING result_space_id`,
        [id, spaceId],
      );
      if (!rows[0]) throw new NotFoundError('translation', id);
      return rows[0].result_space_id!;
    },
  };
}

/** A translation's runs: starting one, its progress, reading runs back and their totals. */
function createTranslationRunStore(sql: Sql): Pick<TranslationStore, 'beginRun' | 'progress' | 'previousCompletedRun' | 'latestRun' | 'getRun' | 'totals'> {
  return {
    async beginRun(id, run) {
      if (!Number.isSafeInteger(run) || run < 1) throw new ValidationError('run must be a positive integer', { run });
      return await sql.transaction(async (tx) => {
        const t = await tx.query<{ id: string }>(`UPDATE translations SET status = 'running', updated_at = now() WHERE id = $1 RETURNING id`, [id]);
        if (!t[0]) throw new NotFoundError('translation', id);
        await tx.query(`INSERT INTO translation_runs (translation_id, run) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, run]);
        // A resumed run starts again from its memory: its counters restart, its start time stays.
        await tx.query(
          `UPDATE translation_runs SET status = 'running', pages_done = 0, segments_done = 0, error_code = NULL, error_message = NULL, finished_at = NULL
           WHERE translation_id = $1 AND run = $2 AND status <> 'completed'`,
          [id, run],
        );
        return runFromRow(await mustRun(tx, id, run));
      });
    },

    async progress(id, run, progress) {
      const sets: string[] = [];
      const params: Array<string | number> = [id, run];
      for (const [key, column] of Object.entries(PROGRESS_COLUMNS) as Array<[keyof TranslationRunProgress, string]>) {
        const value = progress[key];
        if (value === undefined || value === null) continue;
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      }
      if (sets.length === 0) return;
      await sql.query(`UPDATE translation_runs SET ${sets.join(', ')} WHERE translation_id = $1 AND run = $2 AND status = 'running'`, params);
    },

    async previousCompletedRun(id, run) {
      const rows = await sql.query<RunRow>(
        `SELECT ${RUN_COLUMNS} FROM translation_runs WHERE translation_id = $1 AND run < $2 AND status = 'completed' ORDER BY run DESC LIMIT 1`,
        [id, run],
      );
      return rows[0] ? runFromRow(rows[0]) : null;
    },

    async latestRun(id) {
      const rows = await sql.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM translation_runs WHERE translation_id = $1 ORDER BY run DESC LIMIT 1`, [id]);
      return rows[0] ? runFromRow(rows[0]) : null;
    },

    async getRun(id, run) {
      const rows = await sql.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM translation_runs WHERE translation_id = $1 AND run = $2`, [id, run]);
      return rows[0] ? runFromRow(rows[0]) : null;
    },

    async totals(id) {
      const rows = await sql.query<{ runs: string | number; words: string | number | null; pages: string | number | null; ms: string | number | null }>(
        `SELECT count(*) AS runs, sum(words) AS words, sum(pages_translated) AS pages,
           sum(EXTRACT(EPOCH FROM (finished_at - started_at)) * 1000) AS ms
         FROM translation_runs WHERE translation_id = $1 AND finished_at IS NOT NULL`,
        [id],
      );
      const r = rows[0]!;
      return { runs: Number(r.runs), totalWords: Number(r.words ?? 0), totalPages: Number(r.pages ?? 0), totalDurationMs: Math.round(Number(r.ms ?? 0)) };
    },
  };
}

/** How a run ends: completed or failed, each recorded once as an event. */
function createTranslationOutcomeStore(sql: Sql): Pick<TranslationStore, 'completeRun' | 'failRun'> {
  return {
    async completeRun(id, run, result) {
      return await sql.transaction(async (tx) => {
        const before = await tx.query<{ status: string }>('SELECT status FROM translation_runs WHERE translation_id = $1 AND run = $2 FOR UPDATE', [id, run]);
        const rows = await tx.query<RunRow>(
          `UPDATE translation_runs SET status = 'completed', result_revision_id = $3, warnings = $4::jsonb,
             pages_done = pages_total, segments_done = segments_total, finished_at = COALESCE(finished_at, now())
           WHERE translation_id = $1 AND run = $2 RETURNING ${RUN_COLUMNS}`,
          [id, run, result.resultRevisionId, json(result.warnings)],
        );
        if (!rows[0]) throw new NotFoundError('translation run', `${id}/${run}`);
        await tx.query(
          `UPDATE translations SET result_revision_id = $2,
             status = CASE WHEN runs_requested > $3 THEN 'pending' ELSE 'completed' END, updated_at = now()
           WHERE id = $1`,
          [id, result.resultRevisionId, run],
        );
        if (before[0]?.status !== 'completed') await recordTranslationEvent(tx, id, run, 'completed', result.warnings.length);
        return runFromRow(rows[0]);
      });
    },

    async failRun(id, run, error) {
      return await sql.transaction(async (tx) => {
        const exists = await tx.query(`SELECT 1 FROM translations WHERE id = $1 FOR UPDATE`, [id]);
        // A translation deleted while it ran: nothing left to record.
        if (exists.length === 0) return null;
        await tx.query(`INSERT INTO translation_runs (translation_id, run) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, run]);
        const before = await tx.query<{ status: string }>('SELECT status FROM translation_runs WHERE translation_id = $1 AND run = $2', [id, run]);
        const rows = await tx.query<RunRow>(
          `UPDATE translation_runs SET status = 'failed', error_code = $3, error_message = $4, finished_at = now()
           WHERE translation_id = $1 AND run = $2 RETURNING ${RUN_COLUMNS}`,
          [id, run, error.code, error.message.slice(0, 2000)],
        );
        await tx.query(`UPDATE translations SET status = CASE WHEN runs_requested > $2 THEN 'pending' ELSE 'failed' END, updated_at = now() WHERE id = $1`, [
          id,
          run,
        ]);
        if (before[0]?.status !== 'failed') await recordTranslationEvent(tx, id, run, 'failed', 0, error.code);
        return runFromRow(rows[0]!);
      });
    },
  };
}

/** The organization's glossary, versioned so that translation memory keyed by version stays valid. */
function createGlossaryStore(sql: Sql): TranslationStore['glossary'] {
  return {
    async version(organizationId) {
      const rows = await sql.query<{ version: number }>(`SELECT version FROM translation_glossary_versions WHERE organization_id = $1`, [organizationId]);
      return Number(rows[0]?.version ?? 0);
    },

    async list(organizationId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('glossary', options.page) ?? 0;
      const rows = await sql.query<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM translation_glossary_entries WHERE organization_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [organizationId, after, limit + 1],
      );
      const total = await countRows(sql, 'translation_glossary_entries WHERE organization_id = $1', [organizationId]);
      return { ...paginate('glossary', rows, limit, entryFromRow), total };
    },

    async all(organizationId) {
      const rows = await sql.query<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM translation_glossary_entries WHERE organization_id = $1 ORDER BY seq`, [
        organizationId,
      ]);
      return rows.map(entryFromRow);
    },

    async get(organizationId, id) {
      if (typeof id !== 'string' || id === '') return null;
      const rows = await sql.query<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM translation_glossary_entries WHERE id = $1 AND organization_id = $2`, [
        id,
        organizationId,
      ]);
      return rows[0] ? entryFromRow(rows[0]) : null;
    },

    async apply(organizationId, operations) {
      try {
        return await sql.transaction(async (tx) => {
          for (const op of operations) {
            if (op.type === 'insert') {
              await tx.query(`INSERT INTO translation_glossary_entries (id, organization_id, translations) VALUES ($1, $2, $3::jsonb)`, [
                newId(),
                organizationId,
                json(op.translations),
              ]);
            } else if (op.type === 'update') {
              const rows = await tx.query(
                `UPDATE translation_glossary_entries SET translations = $3::jsonb, updated_at = now() WHERE id = $1 AND organization_id = $2 RETURNING id`,
                [op.id, organizationId, json(op.translations)],
              );
              if (rows.length === 0) throw new NotFoundError('glossary entry', op.id);
            } else {
              const rows = await tx.query(`DELETE FROM translation_glossary_entries WHERE id = $1 AND organization_id = $2 RETURNING id`, [
                op.id,
                organizationId,
              ]);
              if (rows.length === 0) throw new NotFoundError('glossary entry', op.id);
            }
          }
          const rows = await tx.query<{ version: number }>(
            `INSERT INTO translation_glossary_versions (organization_id, version) VALUES ($1, 1)
               ON CONFLICT (organization_id) DO UPDATE SET version = translation_glossary_versions.version + 1 RETURNING version`,
            [organizationId],
          );
          return { version: Number(rows[0]!.version) };
        });
      } catch (err) {
        if (sqlState(err) === '23503') throw new NotFoundError('organization', organizationId);
        throw err;
      }
    },
  };
}

/** Translation memory: segments already translated, keyed by segment, language pair and glossary version. */
function createTranslationMemoryStore(sql: Sql): TranslationStore['memory'] {
  return {
    async lookup(organizationId, keys) {
      const found = new Map<string, string>();
      for (let i = 0; i < keys.length; i += 500) {
        const chunk = keys.slice(i, i + 500);
        const rows = await sql.query<{ segment_hash: string; language_pair: string; glossary_version: string; target: string }>(
          `SELECT m.segment_hash, m.language_pair, m.glossary_version, m.target
             FROM translation_memory m
             JOIN unnest($2::text[], $3::text[], $4::text[]) AS k(h, p, g) ON m.segment_hash = k.h AND m.language_pair = k.p AND m.glossary_version = k.g
             WHERE m.organization_id = $1`,
          [organizationId, chunk.map((k) => k.segmentHash), chunk.map((k) => k.languagePair), chunk.map((k) => k.glossaryVersion)],
        );
        for (const r of rows)
          found.set(memoryKeyString({ segmentHash: r.segment_hash, languagePair: r.language_pair, glossaryVersion: r.glossary_version }), r.target);
      }
      return found;
    },

    async put(organizationId, entries) {
      await insertRows(
        sql,
        'translation_memory',
        ['organization_id', 'segment_hash', 'language_pair', 'glossary_version', 'target', 'engine'],
        entries.map((e) => [organizationId, e.segmentHash, e.languagePair, e.glossaryVersion, e.target, e.engine]),
        { suffix: 'ON CONFLICT DO NOTHING' },
      );
    },

    async count(organizationId) {
      const rows = await sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM translation_memory WHERE organization_id = $1`, [organizationId]);
      return Number(rows[0]!.n);
    },
  };
}

export function createTranslationStore(sql: Sql): TranslationStore {
  return {
    ...createTranslationRecordStore(sql),
    ...createTranslationRunStore(sql),
    ...createTranslationOutcomeStore(sql),
    glossary: createGlossaryStore(sql),
    memory: createTranslationMemoryStore(sql),
  };
}
