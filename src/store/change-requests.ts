import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { newId } from './ids.js';
import { recordEvent } from './events.js';
import type { ChangeRequestRecord, ChangeRequestStatus, ChangeRequestStore, JsonObject, Sql, SqlParam } from './types/index.js';

interface Row {
  id: string;
  seq: string | number;
  space_id: string;
  number: number;
  status: string;
  subject: string;
  created_by: string | null;
  revision_id: string;
  revision_initial: string;
  merged_revision_id: string | null;
  merged_by: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  merged_at: Date | string | null;
}

const COLUMNS =
  'id, seq, space_id, number, status, subject, created_by, revision_id, revision_initial, merged_revision_id, merged_by, created_at, updated_at, merged_at';
const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));

function fromRow(r: Row): ChangeRequestRecord {
  return {
    id: r.id,
    spaceId: r.space_id,
    number: Number(r.number),
    status: r.status as ChangeRequestStatus,
    subject: r.subject,
    createdBy: r.created_by,
    revisionId: r.revision_id,
    revisionInitial: r.revision_initial,
    mergedRevisionId: r.merged_revision_id,
    mergedBy: r.merged_by,
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    mergedAt: r.merged_at === null ? null : date(r.merged_at),
  };
}

function cursor(seq: number): string {
  return Buffer.from(JSON.stringify(['cr', seq])).toString('base64url');
}
function afterSeq(page: string | undefined): number {
  if (!page) return 0;
  try {
    const [k, seq] = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as [unknown, unknown];
    if (k === 'cr' && Number.isInteger(seq)) return seq as number;
  } catch {
    // fall through
  }
  throw new ValidationError('page is not a valid cursor for this list');
}

/** A change request's event, in the transaction that changed it (its space's stream). */
async function recordChangeRequestEvent(
  tx: Sql,
  type: 'change_request_opened' | 'change_request_updated' | 'change_request_merged' | 'change_request_closed',
  cr: ChangeRequestRecord,
  extra: JsonObject = {},
) {
  const [space] = await tx.query<{ organization_id: string }>('SELECT organization_id FROM spaces WHERE id = $1', [cr.spaceId]);
  if (!space) return;
  await recordEvent(tx, {
    organizationId: space.organization_id,
    type,
    stream: cr.spaceId,
    spaceId: cr.spaceId,
    payload: {
      spaceId: cr.spaceId,
      changeRequestId: cr.id,
      number: cr.number,
      revisionId: cr.revisionId,
      ...(cr.mergedRevisionId ? { mergedRevisionId: cr.mergedRevisionId } : {}),
      ...extra,
    },
  });
}

/** A new change request, numbered next in its space. */
async function createChangeRequest(sql: Sql, input: Parameters<ChangeRequestStore['create']>[0]): Promise<ChangeRequestRecord> {
  return sql.transaction(async (tx) => {
    // Numbers are per space: serialise creations on the space row.
    const space = await tx.query<{ id: string }>('SELECT id FROM spaces WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [input.spaceId]);
    if (!space[0]) throw new NotFoundError('space', input.spaceId);
    const [{ n }] = (await tx.query<{ n: number }>('SELECT COALESCE(MAX(number), 0) + 1 AS n FROM change_requests WHERE space_id = $1', [input.spaceId])) as [
      { n: number },
    ];
    const rows = await tx.query<Row>(
      `INSERT INTO change_requests (id, space_id, number, status, subject, created_by, revision_id, revision_initial)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${COLUMNS}`,
      [newId(), input.spaceId, Number(n), input.status ?? 'open', input.subject ?? '', input.createdBy ?? null, input.revisionId],
    );
    const cr = fromRow(rows[0]!);
    if (cr.status === 'open') await recordChangeRequestEvent(tx, 'change_request_opened', cr);
    return cr;
  });
}

/** One page of the change requests of a space (or of spaces), by creation order, with the total matching the filters. */
async function listChangeRequests(
  sql: Sql,
  spaceIds: string | readonly string[],
  options: Parameters<ChangeRequestStore['list']>[1],
): ReturnType<ChangeRequestStore['list']> {
  const after = afterSeq(options.page);
  const params: SqlParam[] = [typeof spaceIds === 'string' ? [spaceIds] : [...spaceIds]];
  let where = 'space_id = ANY($1::text[])';
  const statuses = options.status === undefined ? [] : typeof options.status === 'string' ? [options.status] : [...options.status];
  if (statuses.length) where += ` AND status = ANY($${params.push(statuses)}::text[])`;
  if (options.creator) where += ` AND created_by = $${params.push(options.creator)}`;
  if (options.contributor)
    where += ` AND EXISTS (SELECT 1 FROM change_request_contributors c WHERE c.change_request_id = change_requests.id AND c.user_id = $${params.push(options.contributor)})`;
  if (options.requestedReviewer)
    where += ` AND EXISTS (SELECT 1 FROM change_request_reviewers q WHERE q.change_request_id = change_requests.id AND q.user_id = $${params.push(options.requestedReviewer)})`;
  const rows = await sql.query<Row>(
    `SELECT ${COLUMNS} FROM change_requests WHERE ${where} AND seq > ${Number(after)} ORDER BY seq LIMIT ${options.limit + 1}`,
    params,
  );
  const items = rows.slice(0, options.limit).map(fromRow);
  const last = rows[options.limit - 1];
  const counted = await sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM change_requests WHERE ${where}`, params);
  const total = Number(counted[0]?.n ?? 0);
  return rows.length > options.limit && last ? { items, next: { page: cursor(Number(last.seq)) }, total } : { items, total };
}

/** Per space: how many change requests, how many open, how many drafts. */
async function changeRequestCounts(sql: Sql, spaceIds: string[]): ReturnType<ChangeRequestStore['counts']> {
  const out = new Map(spaceIds.map((id) => [id, { total: 0, open: 0, draft: 0 }]));
  if (spaceIds.length === 0) return out;
  const rows = await sql.query<{ space_id: string; total: string | number; open: string | number; draft: string | number }>(
    `SELECT space_id, count(*) AS total, count(*) FILTER (WHERE status = 'open') AS open, count(*) FILTER (WHERE status = 'draft') AS draft
     FROM change_requests WHERE space_id = ANY($1::text[]) GROUP BY space_id`,
    [spaceIds],
  );
  for (const r of rows) out.set(r.space_id, { total: Number(r.total), open: Number(r.open), draft: Number(r.draft) });
  return out;
}

/** Change requests (table `change_requests`, migration 004). */
export function createChangeRequestStore(sql: Sql): ChangeRequestStore {
  return {
    create: (input) => createChangeRequest(sql, input),

    async get(spaceId, id) {
      const rows = await sql.query<Row>(`SELECT ${COLUMNS} FROM change_requests WHERE space_id = $1 AND id = $2`, [spaceId, id]);
      if (rows[0]) return fromRow(rows[0]);
      // GitBook's API takes a change request's number where it takes its id (`…/change-requests/12`).
      if (!/^[1-9][0-9]{0,8}$/.test(id)) return null;
      const byNumber = await sql.query<Row>(`SELECT ${COLUMNS} FROM change_requests WHERE space_id = $1 AND number = $2`, [spaceId, Number(id)]);
      return byNumber[0] ? fromRow(byNumber[0]) : null;
    },

    async byMergedRevision(revisionId) {
      const rows = await sql.query<Row>(`SELECT ${COLUMNS} FROM change_requests WHERE merged_revision_id = $1`, [revisionId]);
      return rows[0] ? fromRow(rows[0]) : null;
    },

    list: (spaceId, options) => listChangeRequests(sql, spaceId, options),

    counts: (spaceIds) => changeRequestCounts(sql, spaceIds),

    async update(spaceId, id, patch) {
      return sql.transaction(async (tx) => {
        const before = await tx.query<{ status: string; subject: string }>(
          'SELECT status, subject FROM change_requests WHERE space_id = $1 AND id = $2 FOR UPDATE',
          [spaceId, id],
        );
        const rows = await tx.query<Row>(
          `UPDATE change_requests SET subject = COALESCE($3, subject), status = COALESCE($4, status), updated_at = now()
           WHERE space_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
          [spaceId, id, patch.subject ?? null, patch.status ?? null],
        );
        if (!rows[0] || !before[0]) throw new NotFoundError('change request', id);
        // A merge that committed since the caller read the change request: merged is final.
        if (before[0].status === 'merged' && patch.status && patch.status !== 'merged') throw new ValidationError('the change request is already merged');
        const cr = fromRow(rows[0]);
        if (before[0].status !== cr.status && cr.status === 'open') await recordChangeRequestEvent(tx, 'change_request_opened', cr);
        if (before[0].status !== cr.status && cr.status === 'archived') await recordChangeRequestEvent(tx, 'change_request_closed', cr);
        // What opened/closed does not say: a new subject, a status of neither (draft).
        const changes = [
          ...(before[0].subject !== cr.subject ? ['subject'] : []),
          ...(before[0].status !== cr.status && cr.status !== 'open' && cr.status !== 'archived' ? ['status'] : []),
        ];
        if (changes.length > 0) await recordChangeRequestEvent(tx, 'change_request_updated', cr, { changes, status: cr.status });
        return cr;
      });
    },

    async setRevision(id, revisionId, expected, options = {}) {
      return sql.transaction(async (tx) => {
        const rows = await tx.query<Row>(
          `UPDATE change_requests SET revision_id = $2, revision_initial = COALESCE($4, revision_initial), updated_at = now()
           WHERE id = $1 AND revision_id = $3 AND status <> 'merged' RETURNING ${COLUMNS}`,
          [id, revisionId, expected, options.revisionInitial ?? null],
        );
        if (!rows[0]) throw new ConflictError('the change request changed meanwhile (or was merged); retry');
        const cr = fromRow(rows[0]);
        // New content (an edit, an update from the space); setting the same revision again changes nothing.
        if (revisionId !== expected) await recordChangeRequestEvent(tx, 'change_request_updated', cr, { changes: ['revision'], previousRevisionId: expected });
        return cr;
      });
    },

    async markMerged(id, mergedRevisionId, mergedBy = null) {
      return sql.transaction(async (tx) => {
        const before = await tx.query<{ status: string }>('SELECT status FROM change_requests WHERE id = $1 FOR UPDATE', [id]);
        const rows = await tx.query<Row>(
          `UPDATE change_requests SET status = 'merged', merged_revision_id = $2, merged_by = $3, merged_at = now(), updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
          [id, mergedRevisionId, mergedBy],
        );
        if (!rows[0] || !before[0]) throw new NotFoundError('change request', id);
        const cr = fromRow(rows[0]);
        if (before[0].status !== 'merged') await recordChangeRequestEvent(tx, 'change_request_merged', cr);
        return cr;
      });
    },
  };
}
