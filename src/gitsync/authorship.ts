/**
 * Who an exported commit is by. A commit that exports the merge of a change request is authored by the change
 * request's author (their display name and e-mail) and committed by Folio (`FOLIO_GIT_AUTHOR_NAME` / `_EMAIL`), with
 * a `Folio-Change-Request` trailer beside Folio's others; any other export is authored and committed by Folio.
 */
import type { RevisionRecord, Store, UserRecord } from '../store/index.js';

export const FOLIO_CHANGE_REQUEST_TRAILER = 'Folio-Change-Request';

export interface Signature {
  name: string;
  email: string;
}

export interface CommitAuthorship {
  author: Signature;
  committer: Signature;
  /** Trailers to add to Folio's own (the change request's id). */
  trailers: Record<string, string>;
}

/** A git identity line cannot carry `<`, `>` or line breaks. */
const clean = (text: string) => text.replace(/[<>\r\n]/g, '').trim();

/** A user's git signature: their e-mail, or for a user without one an address that names them and reaches no one. */
export function userSignature(user: UserRecord): Signature {
  return { name: clean(user.displayName) || user.id, email: user.email ? clean(user.email) : `${user.id}@users.invalid` };
}

export async function exportAuthorship(
  store: Pick<Store, 'changeRequests' | 'users'>,
  revision: Pick<RevisionRecord, 'id' | 'type'>,
  folio: Signature,
): Promise<CommitAuthorship> {
  const plain = { author: folio, committer: folio, trailers: {} };
  if (revision.type !== 'merge') return plain;
  const cr = await store.changeRequests.byMergedRevision(revision.id);
  if (!cr) return plain;
  const user = cr.createdBy ? await store.users.get(cr.createdBy) : null;
  return { author: user ? userSignature(user) : folio, committer: folio, trailers: { [FOLIO_CHANGE_REQUEST_TRAILER]: cr.id } };
}
