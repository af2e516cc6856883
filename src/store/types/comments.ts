import type { CountedPage, PageOptions } from './common.js';

/** Where a thread lives: on a space, or on one of its change requests. */
export interface CommentScope {
  spaceId: string;
  /** null: the space's own comments. */
  changeRequestId: string | null;
}

/** What a comment is anchored to, as it was when posted. */
export interface CommentAnchor {
  /** The page, with its title and path at posting time (a later revision may delete or move it). */
  page?: { id: string; title: string | null; path: string | null };
  /** A node of the page's document, as the client named it. */
  node?: string;
  tableCell?: { record: string; definition: string };
}

export interface CommentReaction {
  emoji: string;
  /** A user id (or, for a service token, the token's id). */
  userId: string;
  reactedAt: Date;
}

export interface CommentRecord extends CommentScope {
  id: string;
  organizationId: string;
  /** A user id (or, for a service token, the token's id). */
  postedBy: string;
  /** Markdown. */
  body: string;
  /** The revision the comment was posted on (the space's primary, or the change request's). */
  revisionId: string;
  anchor: CommentAnchor;
  /** The review it was given with (change requests), or null. */
  reviewId: string | null;
  postedAt: Date;
  editedAt: Date | null;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  /** How many replies, and who replied (how often, last when). */
  replies: number;
  repliers: Array<{ userId: string; count: number; updatedAt: Date }>;
  reactions: CommentReaction[];
}

export interface CommentReplyRecord {
  id: string;
  commentId: string;
  postedBy: string;
  body: string;
  postedAt: Date;
  editedAt: Date | null;
  reactions: CommentReaction[];
}

export interface CommentCreateInput extends CommentScope {
  organizationId: string;
  postedBy: string;
  body: string;
  revisionId: string;
  anchor?: CommentAnchor;
  /** The review (of a change request) the comment was given with. */
  reviewId?: string;
}

export interface CommentListOptions extends PageOptions {
  /** Default `desc` (newest first). */
  order?: 'asc' | 'desc';
  /** Default `all`. */
  status?: 'all' | 'open' | 'resolved';
  /** Only comments on this page. */
  targetPage?: string;
  /** Only comments posted by these users. */
  authors?: string[];
}

/** A change of a comment or a reply: its body, reactions by `actor`, and (comments) whether it is resolved. */
export interface CommentChange {
  actor: string;
  body?: string;
  resolved?: boolean;
  addedReactions?: string[];
  removedReactions?: string[];
}

export interface CommentStore {
  /** NotFoundError when the space (or the change request, in that space) is unknown. */
  create(input: CommentCreateInput): Promise<CommentRecord>;
  /** null when there is no such comment in that scope (a change request's comment is not the space's, and the reverse). */
  get(scope: CommentScope, id: string): Promise<CommentRecord | null>;
  list(scope: CommentScope, options: CommentListOptions): Promise<CountedPage<CommentRecord>>;
  /** NotFoundError when gone. `editedAt` moves only when the body changes; resolving records who and when. */
  update(scope: CommentScope, id: string, change: CommentChange): Promise<CommentRecord>;
  /** With its replies and reactions; false when there was none. */
  delete(scope: CommentScope, id: string): Promise<boolean>;
  /** Open (unresolved) comments per space (its own, not its change requests') and per change request. */
  openCounts(spaceIds: readonly string[]): Promise<{ spaces: Map<string, number>; changeRequests: Map<string, number> }>;

  /** NotFoundError when the comment is gone. */
  reply(scope: CommentScope, commentId: string, input: { postedBy: string; body: string }): Promise<CommentReplyRecord>;
  getReply(scope: CommentScope, commentId: string, replyId: string): Promise<CommentReplyRecord | null>;
  /** Oldest first. */
  replies(scope: CommentScope, commentId: string, options: PageOptions): Promise<CountedPage<CommentReplyRecord>>;
  updateReply(scope: CommentScope, commentId: string, replyId: string, change: Omit<CommentChange, 'resolved'>): Promise<CommentReplyRecord>;
  deleteReply(scope: CommentScope, commentId: string, replyId: string): Promise<boolean>;
}
