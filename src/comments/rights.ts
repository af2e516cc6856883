/**
 * Who may do what with a comment or a reply: anyone with the `comment` role on its space may post, reply, react and
 * resolve or reopen a thread; changing or deleting what someone posted is for its author, or an admin of the space.
 */
import { atLeast, type MemberRole } from '../people/roles.js';

export interface CommentRights {
  view: boolean;
  edit: boolean;
  reply: boolean;
  delete: boolean;
}

/** What a caller (`callerId`: their user id, or a service token's id) with `role` on the space may do with a post by `authorId`. */
export function commentRights(role: MemberRole | null, callerId: string, authorId: string): CommentRights {
  const own = callerId === authorId && atLeast(role, 'comment');
  const admin = atLeast(role, 'admin');
  return { view: atLeast(role, 'read'), edit: own || admin, reply: atLeast(role, 'comment'), delete: own || admin };
}
