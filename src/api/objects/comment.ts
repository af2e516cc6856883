import { pageState } from '../../comments/anchor.js';
import { commentRights } from '../../comments/rights.js';
import type { CommentReaction, CommentRecord, CommentReplyRecord, MemberRole, PageRecord, UserRecord } from '../../store/index.js';
import { actorObject } from './user.js';
import { iso, type UrlBuilder } from './urls.js';

/** What the Comment and CommentReply objects are made with besides the records. */
export interface CommentView {
  urls: UrlBuilder;
  /** The users the records name (authors, resolvers, repliers, who reacted). */
  users: ReadonlyMap<string, UserRecord>;
  /** The caller's role on the space, and their id (a user's, or a service token's). */
  role: MemberRole | null;
  callerId: string;
  /** The pages of the current revision (the space's primary, or the change request's), by id. */
  pages: ReadonlyMap<string, PageRecord>;
}

/** The ids of every user a list of comments or replies names (to read them at once). */
export function usersNamed(records: ReadonlyArray<CommentRecord | CommentReplyRecord>): string[] {
  const ids = new Set<string>();
  for (const r of records) {
    ids.add(r.postedBy);
    for (const x of r.reactions) ids.add(x.userId);
    if ('repliers' in r) for (const x of r.repliers) ids.add(x.userId);
    if ('resolvedBy' in r && r.resolvedBy) ids.add(r.resolvedBy);
  }
  return [...ids];
}

/** The official EmojiReactions: one entry per emoji, with who reacted and when. */
function reactionsObject(reactions: readonly CommentReaction[], view: CommentView) {
  const byEmoji = new Map<string, CommentReaction[]>();
  for (const r of reactions) byEmoji.set(r.emoji, [...(byEmoji.get(r.emoji) ?? []), r]);
  return [...byEmoji].map(([emoji, list]) => ({
    emoji,
    count: list.length,
    users: list.map((r) => ({ user: actorObject(r.userId, view.users, view.urls), reactedAt: iso(r.reactedAt)! })),
  }));
}

export function commentLocation(urls: UrlBuilder, c: Pick<CommentRecord, 'spaceId' | 'changeRequestId' | 'id'>): string {
  return urls.api(`/spaces/${c.spaceId}${c.changeRequestId ? `/change-requests/${c.changeRequestId}` : ''}/comments/${c.id}`);
}

/** The official Comment, its body in the format asked for (`{ markdown }` or `{ document }`). */
export function commentObject(c: CommentRecord, body: { markdown: string } | { document: unknown }, view: CommentView) {
  const page = pageState(c.anchor, view.pages);
  const resolved = c.resolvedAt && c.resolvedBy;
  return {
    object: 'comment' as const,
    id: c.id,
    postedBy: actorObject(c.postedBy, view.users, view.urls),
    postedAt: iso(c.postedAt)!,
    ...(c.editedAt ? { editedAt: iso(c.editedAt)! } : {}),
    reactions: reactionsObject(c.reactions, view),
    replies: c.replies,
    repliers: c.repliers.map((r) => ({ user: actorObject(r.userId, view.users, view.urls), count: r.count, updatedAt: iso(r.updatedAt)! })),
    body,
    target: {
      space: c.spaceId,
      revision: c.revisionId,
      ...(c.changeRequestId ? { changeRequest: c.changeRequestId } : {}),
      ...(c.reviewId ? { review: c.reviewId } : {}),
      ...(page ? { page } : {}),
      ...(c.anchor.node ? { node: { id: c.anchor.node } } : {}),
      ...(c.anchor.tableCell ? { tableCell: c.anchor.tableCell } : {}),
    },
    urls: { location: commentLocation(view.urls, c) },
    permissions: commentRights(view.role, view.callerId, c.postedBy),
    ...(resolved
      ? { status: 'resolved' as const, resolvedAt: iso(c.resolvedAt)!, resolvedBy: actorObject(c.resolvedBy, view.users, view.urls) }
      : { status: 'open' as const }),
  };
}

/** The official CommentReply. */
export function commentReplyObject(
  comment: Pick<CommentRecord, 'spaceId' | 'changeRequestId' | 'id'>,
  r: CommentReplyRecord,
  body: { markdown: string } | { document: unknown },
  view: CommentView,
) {
  return {
    object: 'comment-reply' as const,
    id: r.id,
    postedBy: actorObject(r.postedBy, view.users, view.urls),
    postedAt: iso(r.postedAt)!,
    ...(r.editedAt ? { editedAt: iso(r.editedAt)! } : {}),
    reactions: reactionsObject(r.reactions, view),
    body,
    urls: { location: `${commentLocation(view.urls, comment)}/replies/${r.id}` },
    permissions: commentRights(view.role, view.callerId, r.postedBy),
  };
}
