import { NotFoundError } from '../errors.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { recordEvent } from './events.js';
import { newId } from './ids.js';
import { json, toDate, toDateOrNull } from './sql-helpers.js';
import type {
  CommentAnchor,
  CommentChange,
  CommentReaction,
  CommentRecord,
  CommentReplyRecord,
  CommentScope,
  CommentStore,
  JsonObject,
  Sql,
  SqlParam,
} from './types/index.js';

interface CommentRow {
  id: string;
  seq: string | number;
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  posted_by: string;
  body: string;
  revision_id: string;
  page_id: string | null;
  page_title: string | null;
  page_path: string | null;
  node_id: string | null;
  table_cell: { record: string; definition: string } | string | null;
  posted_at: unknown;
  edited_at: unknown;
  resolved_at: unknown;
  resolved_by: string | null;
  review_id: string | null;
}

interface ReplyRow {
  id: string;
  seq: string | number;
  comment_id: string;
  posted_by: string;
  body: string;
  posted_at: unknown;
  edited_at: unknown;
}

const COLUMNS = `id, seq, organization_id, space_id, change_request_id, posted_by, body, revision_id, page_id, page_title, page_path,
  node_id, table_cell, posted_at, edited_at, resolved_at, resolved_by, review_id`;
const REPLY_COLUMNS = 'id, seq, comment_id, posted_by, body, posted_at, edited_at';
/** The scope's condition on `comments` with its two parameters at `$n` and `$n+1`. */
const inScope = (n: number) => `space_id = $${n} AND change_request_id IS NOT DISTINCT FROM $${n + 1}::text`;
const scopeParams = (scope: CommentScope): SqlParam[] => [scope.spaceId, scope.changeRequestId];

function anchorOf(row: CommentRow): CommentAnchor {
  const cell = typeof row.table_cell === 'string' ? (JSON.parse(row.table_cell) as CommentAnchor['tableCell']) : row.table_cell;
  return {
    ...(row.page_id ? { page: { id: row.page_id, title: row.page_title, path: row.page_path } } : {}),
    ...(row.node_id ? { node: row.node_id } : {}),
    ...(cell ? { tableCell: cell } : {}),
  };
}

/** The replies' counts, repliers and reactions of these comments (and reactions of these replies), read at once. */
async function extrasOf(sql: Sql, commentIds: string[], replyIds: string[] = []) {
  const [repliers, reactions] = await Promise.all([
    commentIds.length
      ? sql.query<{ comment_id: string; posted_by: string; n: string | number; last: unknown }>(
          `SELECT comment_id, posted_by, count(*) AS n, max(posted_at) AS last FROM comment_replies WHERE comment_id = ANY($1::text[])
           GROUP BY comment_id, posted_by ORDER BY min(seq)`,
          [commentIds],
        )
      : [],
    sql.query<{ target_id: string; user_id: string; emoji: string; reacted_at: unknown }>(
      'SELECT target_id, user_id, emoji, reacted_at FROM comment_reactions WHERE target_id = ANY($1::text[]) ORDER BY seq',
      [[...commentIds, ...replyIds]],
    ),
  ]);
  const byTarget = new Map<string, CommentReaction[]>();
  for (const r of reactions)
    byTarget.set(r.target_id, [...(byTarget.get(r.target_id) ?? []), { emoji: r.emoji, userId: r.user_id, reactedAt: toDate(r.reacted_at) }]);
  const byComment = new Map<string, CommentRecord['repliers']>();
  for (const r of repliers)
    byComment.set(r.comment_id, [...(byComment.get(r.comment_id) ?? []), { userId: r.posted_by, count: Number(r.n), updatedAt: toDate(r.last) }]);
  return { reactions: byTarget, repliers: byComment };
}

async function commentsFromRows(sql: Sql, rows: CommentRow[]): Promise<CommentRecord[]> {
  const extras = await extrasOf(
    sql,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const repliers = extras.repliers.get(row.id) ?? [];
    return {
      id: row.id,
      organizationId: row.organization_id,
      spaceId: row.space_id,
      changeRequestId: row.change_request_id,
      postedBy: row.posted_by,
      body: row.body,
      revisionId: row.revision_id,
      anchor: anchorOf(row),
      reviewId: row.review_id,
      postedAt: toDate(row.posted_at),
      editedAt: toDateOrNull(row.edited_at),
      resolvedAt: toDateOrNull(row.resolved_at),
      resolvedBy: row.resolved_by,
      replies: repliers.reduce((n, r) => n + r.count, 0),
      repliers,
      reactions: extras.reactions.get(row.id) ?? [],
    };
  });
}

async function repliesFromRows(sql: Sql, rows: ReplyRow[]): Promise<CommentReplyRecord[]> {
  const extras = await extrasOf(
    sql,
    [],
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    commentId: row.comment_id,
    postedBy: row.posted_by,
    body: row.body,
    postedAt: toDate(row.posted_at),
    editedAt: toDateOrNull(row.edited_at),
    reactions: extras.reactions.get(row.id) ?? [],
  }));
}

async function loadComment(sql: Sql, scope: CommentScope, id: string, lock = ''): Promise<CommentRow | null> {
  const rows = await sql.query<CommentRow>(`SELECT ${COLUMNS} FROM comments WHERE id = $1 AND ${inScope(2)} ${lock}`, [id, ...scopeParams(scope)]);
  return rows[0] ?? null;
}

async function loadReply(sql: Sql, scope: CommentScope, commentId: string, replyId: string, lock = ''): Promise<ReplyRow | null> {
  const rows = await sql.query<ReplyRow>(
    `SELECT ${REPLY_COLUMNS} FROM comment_replies r WHERE r.id = $1 AND r.comment_id = $2
       AND EXISTS (SELECT 1 FROM comments c WHERE c.id = r.comment_id AND c.${inScope(3)}) ${lock}`,
    [replyId, commentId, ...scopeParams(scope)],
  );
  return rows[0] ?? null;
}

/** Adds and removes `actor`'s reactions on a comment (`replyId` null) or a reply. */
async function react(tx: Sql, commentId: string, replyId: string | null, change: CommentChange): Promise<void> {
  const target = replyId ?? commentId;
  for (const emoji of new Set(change.addedReactions ?? []))
    await tx.query(`INSERT INTO comment_reactions (comment_id, reply_id, target_id, user_id, emoji) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, [
      commentId,
      replyId,
      target,
      change.actor,
      emoji,
    ]);
  const removed = [...new Set(change.removedReactions ?? [])];
  if (removed.length)
    await tx.query('DELETE FROM comment_reactions WHERE target_id = $1 AND user_id = $2 AND emoji = ANY($3::text[])', [target, change.actor, removed]);
}

/**
 * A comment's event, in the transaction that posted or changed it (its space's stream): `comment_created` for a
 * comment or a reply, `comment_updated` when its text or its resolution changed (reactions are not events).
 */
async function recordCommentEvent(tx: Sql, type: 'comment_created' | 'comment_updated', row: CommentRow, extra: JsonObject = {}): Promise<void> {
  await recordEvent(tx, {
    organizationId: row.organization_id,
    type,
    stream: row.space_id,
    spaceId: row.space_id,
    payload: {
      spaceId: row.space_id,
      changeRequestId: row.change_request_id,
      commentId: row.id,
      ...(row.page_id ? { pageId: row.page_id } : {}),
      ...extra,
    },
  });
}

async function createComment(sql: Sql, input: Parameters<CommentStore['create']>[0]): Promise<CommentRecord> {
  return sql.transaction(async (tx) => {
    const space = await tx.query('SELECT 1 FROM spaces WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL FOR SHARE', [
      input.spaceId,
      input.organizationId,
    ]);
    if (space.length === 0) throw new NotFoundError('space', input.spaceId);
    if (input.changeRequestId !== null) {
      const cr = await tx.query('SELECT 1 FROM change_requests WHERE id = $1 AND space_id = $2 FOR SHARE', [input.changeRequestId, input.spaceId]);
      if (cr.length === 0) throw new NotFoundError('change request', input.changeRequestId);
    }
    const a = input.anchor ?? {};
    const rows = await tx.query<CommentRow>(
      `INSERT INTO comments (id, organization_id, space_id, change_request_id, posted_by, body, revision_id, page_id, page_title, page_path, node_id, table_cell, review_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13) RETURNING ${COLUMNS}`,
      [
        newId(),
        input.organizationId,
        input.spaceId,
        input.changeRequestId,
        input.postedBy,
        input.body,
        input.revisionId,
        a.page?.id ?? null,
        a.page?.title ?? null,
        a.page?.path ?? null,
        a.node ?? null,
        json(a.tableCell),
        input.reviewId ?? null,
      ],
    );
    await recordCommentEvent(tx, 'comment_created', rows[0]!, { postedBy: input.postedBy });
    return (await commentsFromRows(tx, rows))[0]!;
  });
}

async function updateComment(sql: Sql, scope: CommentScope, id: string, change: CommentChange): Promise<CommentRecord> {
  return sql.transaction(async (tx) => {
    const row = await loadComment(tx, scope, id, 'FOR UPDATE');
    if (!row) throw new NotFoundError('comment', id);
    if (change.body !== undefined && change.body !== row.body)
      await tx.query('UPDATE comments SET body = $2, edited_at = now() WHERE id = $1', [id, change.body]);
    if (change.resolved === true && row.resolved_at === null)
      await tx.query('UPDATE comments SET resolved_at = now(), resolved_by = $2 WHERE id = $1', [id, change.actor]);
    if (change.resolved === false && row.resolved_at !== null) await tx.query('UPDATE comments SET resolved_at = NULL, resolved_by = NULL WHERE id = $1', [id]);
    const changes = [
      ...(change.body !== undefined && change.body !== row.body ? ['body'] : []),
      ...(change.resolved !== undefined && change.resolved !== (row.resolved_at !== null) ? ['resolved'] : []),
    ];
    if (changes.length > 0) await recordCommentEvent(tx, 'comment_updated', row, { changes, updatedBy: change.actor });
    await react(tx, id, null, change);
    return (await commentsFromRows(tx, [(await loadComment(tx, scope, id))!]))[0]!;
  });
}

async function listComments(sql: Sql, scope: CommentScope, options: Parameters<CommentStore['list']>[1]) {
  const limit = checkLimit(options);
  const order = options.order ?? 'desc';
  const kind = `comments-${order}`;
  const after = decodeCursor(kind, options.page);
  const params: SqlParam[] = scopeParams(scope);
  let where = inScope(1);
  if (options.status === 'open') where += ' AND resolved_at IS NULL';
  if (options.status === 'resolved') where += ' AND resolved_at IS NOT NULL';
  if (options.targetPage) where += ` AND page_id = $${params.push(options.targetPage)}`;
  if (options.authors?.length) where += ` AND posted_by = ANY($${params.push(options.authors)}::text[])`;
  const total = await countRows(sql, `comments WHERE ${where}`, params);
  const cursor = after === null ? '' : ` AND seq ${order === 'asc' ? '>' : '<'} ${Number(after)}`;
  const rows = await sql.query<CommentRow>(
    `SELECT ${COLUMNS} FROM comments WHERE ${where}${cursor} ORDER BY seq ${order === 'asc' ? 'ASC' : 'DESC'} LIMIT ${limit + 1}`,
    params,
  );
  const page = paginate(kind, rows, limit, (r) => r);
  return { items: await commentsFromRows(sql, page.items), ...(page.next ? { next: page.next } : {}), total };
}

async function openCounts(sql: Sql, spaceIds: readonly string[]) {
  const rows = spaceIds.length
    ? await sql.query<{ space_id: string; change_request_id: string | null; n: string | number }>(
        `SELECT space_id, change_request_id, count(*) AS n FROM comments WHERE space_id = ANY($1::text[]) AND resolved_at IS NULL
         GROUP BY space_id, change_request_id`,
        [[...spaceIds]],
      )
    : [];
  const spaces = new Map<string, number>();
  const changeRequests = new Map<string, number>();
  for (const r of rows) {
    if (r.change_request_id === null) spaces.set(r.space_id, Number(r.n));
    else changeRequests.set(r.change_request_id, Number(r.n));
  }
  return { spaces, changeRequests };
}

function replyMembers(sql: Sql): Pick<CommentStore, 'reply' | 'getReply' | 'replies' | 'updateReply' | 'deleteReply'> {
  return {
    async reply(scope, commentId, input) {
      return sql.transaction(async (tx) => {
        const comment = await loadComment(tx, scope, commentId, 'FOR SHARE');
        if (!comment) throw new NotFoundError('comment', commentId);
        const rows = await tx.query<ReplyRow>(
          `INSERT INTO comment_replies (id, comment_id, posted_by, body) VALUES ($1, $2, $3, $4) RETURNING ${REPLY_COLUMNS}`,
          [newId(), commentId, input.postedBy, input.body],
        );
        await recordCommentEvent(tx, 'comment_created', comment, { replyId: rows[0]!.id, postedBy: input.postedBy });
        return (await repliesFromRows(tx, rows))[0]!;
      });
    },
    async getReply(scope, commentId, replyId) {
      const row = await loadReply(sql, scope, commentId, replyId);
      return row ? (await repliesFromRows(sql, [row]))[0]! : null;
    },
    async replies(scope, commentId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('comment-replies', options.page) ?? 0;
      if (!(await loadComment(sql, scope, commentId))) throw new NotFoundError('comment', commentId);
      const total = await countRows(sql, 'comment_replies WHERE comment_id = $1', [commentId]);
      const rows = await sql.query<ReplyRow>(`SELECT ${REPLY_COLUMNS} FROM comment_replies WHERE comment_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [
        commentId,
        after,
        limit + 1,
      ]);
      const page = paginate('comment-replies', rows, limit, (r) => r);
      return { items: await repliesFromRows(sql, page.items), ...(page.next ? { next: page.next } : {}), total };
    },
    async updateReply(scope, commentId, replyId, change) {
      return sql.transaction(async (tx) => {
        const row = await loadReply(tx, scope, commentId, replyId, 'FOR UPDATE');
        if (!row) throw new NotFoundError('comment reply', replyId);
        if (change.body !== undefined && change.body !== row.body) {
          await tx.query('UPDATE comment_replies SET body = $2, edited_at = now() WHERE id = $1', [replyId, change.body]);
          const comment = (await loadComment(tx, scope, commentId))!;
          await recordCommentEvent(tx, 'comment_updated', comment, { replyId, changes: ['body'], updatedBy: change.actor });
        }
        await react(tx, commentId, replyId, change);
        return (await repliesFromRows(tx, [(await loadReply(tx, scope, commentId, replyId))!]))[0]!;
      });
    },
    async deleteReply(scope, commentId, replyId) {
      const row = await loadReply(sql, scope, commentId, replyId);
      if (!row) return false;
      return (await sql.query('DELETE FROM comment_replies WHERE id = $1 RETURNING id', [replyId])).length > 0;
    },
  };
}

export function createCommentStore(sql: Sql): CommentStore {
  return {
    create: (input) => createComment(sql, input),
    async get(scope, id) {
      const row = await loadComment(sql, scope, id);
      return row ? (await commentsFromRows(sql, [row]))[0]! : null;
    },
    list: (scope, options) => listComments(sql, scope, options),
    update: (scope, id, change) => updateComment(sql, scope, id, change),
    async delete(scope, id) {
      return (await sql.query(`DELETE FROM comments WHERE id = $1 AND ${inScope(2)} RETURNING id`, [id, ...scopeParams(scope)])).length > 0;
    },
    openCounts: (spaceIds) => openCounts(sql, spaceIds),
    ...replyMembers(sql),
  };
}
