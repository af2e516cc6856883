import type { SpaceRecord } from '../../store/index.js';
import { iso, type UrlBuilder } from './urls.js';

/** The platform API's Space object for a stored space. */
export function spaceObject(space: SpaceRecord, urls: UrlBuilder) {
  const deletedAt = iso(space.deletedAt);
  return {
    object: 'space' as const,
    id: space.id,
    title: space.title ?? '',
    emoji: space.emoji ?? '',
    visibility: space.visibility ?? 'private',
    createdAt: iso(space.createdAt)!,
    updatedAt: iso(space.updatedAt)!,
    ...(deletedAt ? { deletedAt } : {}),
    editMode: space.editMode ?? 'live',
    mergeRules: { type: 'inherit' as const },
    urls: {
      location: urls.api(`/spaces/${space.id}`),
      app: urls.app(`/s/${space.id}`),
    },
    organization: space.organizationId,
    ...(space.parent ? { parent: space.parent } : {}),
    ...(space.language ? { language: space.language } : {}),
    revision: space.revisionId ?? '',
    defaultLevel: 'inherit' as const,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: {
      view: true,
      access: true,
      admin: true,
      viewInviteLinks: false,
      edit: space.editMode !== 'locked',
      triggerGitSync: true,
      comment: true,
      merge: true,
      review: true,
      installIntegration: false,
    },
  };
}
