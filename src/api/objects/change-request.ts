import type { ChangeRequestRecord, UserRecord } from '../../store/index.js';
import { actorObject } from './user.js';
import { iso, type UrlBuilder } from './urls.js';

/** The platform API's ChangeRequest object. `outdated`: the primary revision moved since it was created/updated. */
export function changeRequestObject(
  cr: ChangeRequestRecord,
  primaryRevisionId: string | null,
  urls: UrlBuilder,
  users: ReadonlyMap<string, UserRecord> = new Map(),
  /** Open (unresolved) comments on the change request. */
  openComments = 0,
) {
  return {
    object: 'change-request' as const,
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    createdBy: actorObject(cr.createdBy, users, urls),
    createdAt: iso(cr.createdAt)!,
    updatedAt: iso(cr.updatedAt)!,
    ...(cr.mergedAt ? { mergedAt: iso(cr.mergedAt)!, mergedBy: actorObject(cr.mergedBy, users, urls) } : {}),
    ...(cr.mergedRevisionId ? { revisionMerged: cr.mergedRevisionId } : {}),
    space: cr.spaceId,
    revision: cr.revisionId,
    revisionInitial: cr.revisionInitial,
    ...(cr.status !== 'merged' ? { revisionMergedAncestor: cr.revisionInitial } : {}),
    comments: openComments,
    outdated: cr.status !== 'merged' && primaryRevisionId !== null && primaryRevisionId !== cr.revisionInitial,
    urls: { location: urls.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`), app: urls.app(`/s/${cr.spaceId}/~/changes/${cr.number}`) },
  };
}
