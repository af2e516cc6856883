import type { ContributorRecord, RequestedReviewerRecord, ReviewRecord, UserRecord } from '../../store/index.js';
import { actorObject } from './user.js';
import { iso, type UrlBuilder } from './urls.js';

/** The official ChangeRequestReview; `comment` the Comment object given with it, when there is one. */
export function reviewObject(
  spaceId: string,
  r: ReviewRecord,
  users: ReadonlyMap<string, UserRecord>,
  urls: UrlBuilder,
  comment?: Record<string, unknown> | undefined,
) {
  return {
    object: 'change-request-review' as const,
    id: r.id,
    revision: r.revisionId,
    reviewer: actorObject(r.reviewer, users, urls),
    ...(r.requestedBy ? { requestedBy: actorObject(r.requestedBy, users, urls) } : {}),
    status: r.status,
    outdated: r.outdated,
    ...(comment ? { comment } : {}),
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.createdAt)!,
    urls: { location: urls.api(`/spaces/${spaceId}/change-requests/${r.changeRequestId}/reviews/${r.id}`) },
  };
}

/** The official ChangeRequestRequestedReviewer (Folio asks users, not teams). */
export function requestedReviewerObject(r: RequestedReviewerRecord, users: ReadonlyMap<string, UserRecord>, urls: UrlBuilder) {
  return {
    object: 'change-request-requested-reviewer' as const,
    revision: r.revisionId,
    requestedBy: actorObject(r.requestedBy, users, urls),
    createdAt: iso(r.createdAt)!,
    kind: 'user' as const,
    user: actorObject(r.userId, users, urls),
  };
}

/** The official ChangeRequestUserContributor. */
export function contributorObject(c: ContributorRecord, users: ReadonlyMap<string, UserRecord>, urls: UrlBuilder) {
  return { user: actorObject(c.userId, users, urls), count: c.count, updatedAt: iso(c.updatedAt)!, actionType: c.actionType };
}
