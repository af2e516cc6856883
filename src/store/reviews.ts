import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { newId } from './ids.js';
import { toDate } from './sql-helpers.js';
import type { ContributionKind, RequestedReviewerRecord, ReviewRecord, ReviewStatus, ReviewStore, Sql } from './types/index.js';

interface ReviewRow {
  id: string;
  seq: string | number;
  change_request_id: string;
  reviewer: string;
  requested_by: string | null;
  status: string;
  revision_id: string;
  comment_id: string | null;
  created_at: unknown;
  outdated: boolean;
}

interface RequestRow {
  seq: string | number;
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision_id: string;
  created_at: unknown;
}

/** A review is outdated once the same reviewer reviewed again, or was asked again, after it. */
const OUTDATED = `(EXISTS (SELECT 1 FROM change_request_reviews n WHERE n.change_request_id = r.change_request_id AND n.reviewer = r.reviewer AND n.seq > r.seq)
   OR EXISTS (SELECT 1 FROM change_request_reviewers q WHERE q.change_request_id = r.change_request_id AND q.user_id = r.reviewer AND q.seq > r.request_seq))`;
const REVIEW_COLUMNS = `r.id, r.seq, r.change_request_id, r.reviewer, r.requested_by, r.status, r.revision_id, r.comment_id, r.created_at, ${OUTDATED} AS outdated`;

const reviewFromRow = (row: ReviewRow): ReviewRecord => ({
  id: row.id,
  changeRequestId: row.change_request_id,
  reviewer: row.reviewer,
  requestedBy: row.requested_by,
  status: row.status as ReviewStatus,
  revisionId: row.revision_id,
  commentId: row.comment_id,
  createdAt: toDate(row.created_at),
  outdated: row.outdated === true,
});

const requestFromRow = (row: RequestRow): RequestedReviewerRecord => ({
  changeRequestId: row.change_request_id,
  userId: row.user_id,
  requestedBy: row.requested_by,
  revisionId: row.revision_id,
  createdAt: toDate(row.created_at),
});

async function getReview(sql: Sql, changeRequestId: string, id: string): Promise<ReviewRecord | null> {
  const rows = await sql.query<ReviewRow>(`SELECT ${REVIEW_COLUMNS} FROM change_request_reviews r WHERE r.change_request_id = $1 AND r.id = $2`, [
    changeRequestId,
    id,
  ]);
  return rows[0] ? reviewFromRow(rows[0]) : null;
}

async function submitReview(sql: Sql, input: Parameters<ReviewStore['submit']>[0]): Promise<ReviewRecord> {
  return sql.transaction(async (tx) => {
    const answered = await tx.query<{ requested_by: string }>(
      'DELETE FROM change_request_reviewers WHERE change_request_id = $1 AND user_id = $2 RETURNING requested_by',
      [input.changeRequestId, input.reviewer],
    );
    const id = input.id ?? newId();
    await tx.query(
      `INSERT INTO change_request_reviews (id, change_request_id, reviewer, requested_by, status, revision_id, comment_id, request_seq)
           VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT coalesce(max(seq), 0) FROM change_request_reviewers))`,
      [id, input.changeRequestId, input.reviewer, answered[0]?.requested_by ?? null, input.status, input.revisionId, input.commentId ?? null],
    );
    return (await getReview(tx, input.changeRequestId, id))!;
  });
}

async function listReviews(sql: Sql, changeRequestId: string, options: Parameters<ReviewStore['list']>[1]) {
  const limit = checkLimit(options);
  const after = decodeCursor('reviews', options.page);
  const where = `r.change_request_id = $1`;
  const outdated = options.outdated === undefined ? '' : ` AND ${OUTDATED} = ${options.outdated ? 'true' : 'false'}`;
  const total = await countRows(sql, `change_request_reviews r WHERE ${where}${outdated}`, [changeRequestId]);
  const cursor = after === null ? '' : ` AND r.seq < ${Number(after)}`;
  const rows = await sql.query<ReviewRow>(
    `SELECT ${REVIEW_COLUMNS} FROM change_request_reviews r WHERE ${where}${outdated}${cursor} ORDER BY r.seq DESC LIMIT ${limit + 1}`,
    [changeRequestId],
  );
  return { ...paginate('reviews', rows, limit, reviewFromRow), total };
}

export function createReviewStore(sql: Sql): ReviewStore {
  return {
    async contribute(changeRequestId, userId, kind: ContributionKind) {
      await sql.query(
        `INSERT INTO change_request_contributors (change_request_id, user_id, action_type, count) VALUES ($1, $2, $3, 1)
         ON CONFLICT (change_request_id, user_id, action_type) DO UPDATE SET count = change_request_contributors.count + 1, updated_at = now()`,
        [changeRequestId, userId, kind],
      );
    },
    async contributors(changeRequestId) {
      const rows = await sql.query<{ user_id: string; action_type: string; count: number; updated_at: unknown }>(
        'SELECT user_id, action_type, count, updated_at FROM change_request_contributors WHERE change_request_id = $1 ORDER BY updated_at DESC, user_id',
        [changeRequestId],
      );
      return rows.map((r) => ({ userId: r.user_id, actionType: r.action_type as ContributionKind, count: Number(r.count), updatedAt: toDate(r.updated_at) }));
    },
    async request(changeRequestId, userIds, requestedBy, revisionId) {
      return sql.transaction(async (tx) => {
        const out: RequestedReviewerRecord[] = [];
        for (const userId of new Set(userIds)) {
          const rows = await tx.query<RequestRow>(
            `INSERT INTO change_request_reviewers (change_request_id, user_id, requested_by, revision_id) VALUES ($1, $2, $3, $4)
             ON CONFLICT (change_request_id, user_id) DO UPDATE SET requested_by = EXCLUDED.requested_by, revision_id = EXCLUDED.revision_id,
               created_at = now(), seq = nextval(pg_get_serial_sequence('change_request_reviewers', 'seq'))
             RETURNING *`,
            [changeRequestId, userId, requestedBy, revisionId],
          );
          out.push(requestFromRow(rows[0]!));
        }
        return out;
      });
    },
    async requested(changeRequestId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('requested-reviewers', options.page) ?? 0;
      const total = await countRows(sql, 'change_request_reviewers WHERE change_request_id = $1', [changeRequestId]);
      const rows = await sql.query<RequestRow>('SELECT * FROM change_request_reviewers WHERE change_request_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [
        changeRequestId,
        after,
        limit + 1,
      ]);
      return { ...paginate('requested-reviewers', rows, limit, requestFromRow), total };
    },
    async unrequest(changeRequestId, userId) {
      const rows = await sql.query('DELETE FROM change_request_reviewers WHERE change_request_id = $1 AND user_id = $2 RETURNING user_id', [
        changeRequestId,
        userId,
      ]);
      return rows.length > 0;
    },
    submit: (input) => submitReview(sql, input),
    list: (changeRequestId, options) => listReviews(sql, changeRequestId, options),
    get: (changeRequestId, id) => getReview(sql, changeRequestId, id),
  };
}
