import type { ChangeRequestRecord } from '../../store/index.js';
import { iso, type UrlBuilder } from './urls.js';

/** The API user behind a change request (Folio knows tokens, not people). */
export function userObject(id: string | null, urls: UrlBuilder) {
  const userId = id ?? 'folio';
  return { object: 'user' as const, id: userId, displayName: id ? `API token ${id}` : 'Folio', urls: { location: urls.api(`/users/${userId}`) } };
}

/** The platform API's ChangeRequest object. `outdated`: the primary revision moved since it was created/updated. */
export function changeRequestObject(cr: ChangeRequestRecord, primaryRevisionId: string | null, urls: UrlBuilder) {
  return {
    object: 'change-request' as const,
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    createdBy: userObject(cr.createdBy, urls),
    createdAt: iso(cr.createdAt)!,
    updatedAt: iso(cr.updatedAt)!,
    ...(cr.mergedAt ? { mergedAt: iso(cr.mergedAt)!, mergedBy: userObject(cr.mergedBy, urls) } : {}),
    ...(cr.mergedRevisionId ? { revisionMerged: cr.mergedRevisionId } : {}),
    space: cr.spaceId,
    revision: cr.revisionId,
    revisionInitial: cr.revisionInitial,
    ...(cr.status !== 'merged' ? { revisionMergedAncestor: cr.revisionInitial } : {}),
    comments: 0,
    outdated: cr.status !== 'merged' && primaryRevisionId !== null && primaryRevisionId !== cr.revisionInitial,
    urls: { location: urls.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`), app: urls.app(`/s/${cr.spaceId}/~/changes/${cr.number}`) },
  };
}
