import type { MemberRole, SpaceRecord } from '../../store/index.js';
import { spacePermissions } from './permissions.js';
import type { gitSyncStateObject } from '../../gitsync/info.js';
import { iso, type UrlBuilder } from './urls.js';

/** What a Space object tells besides the space's own row (loaded by `../space-bodies.ts`). */
export interface SpaceFacts {
  /** The space's git sync (the spec's `GitSyncState`), null when it never synced. */
  gitSync: ReturnType<typeof gitSyncStateObject>;
  changeRequests: { total: number; open: number; draft: number };
  /** Open (unresolved) comments on the space itself. */
  comments: number;
  /** The caller's role on the space (its `permissions`). */
  role: MemberRole | null;
}

/** The platform API's Space object for a stored space; `deletedAt` on a deleted space (until it is purged). */
export function spaceObject(space: SpaceRecord, urls: UrlBuilder, facts: SpaceFacts) {
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
    ...(facts.gitSync ? { gitSync: facts.gitSync } : {}),
    revision: space.revisionId ?? '',
    defaultLevel: space.defaultLevel === undefined ? ('inherit' as const) : space.defaultLevel,
    comments: facts.comments,
    changeRequests: facts.changeRequests.total,
    changeRequestsOpen: facts.changeRequests.open,
    changeRequestsDraft: facts.changeRequests.draft,
    permissions: spacePermissions(facts.role, space),
  };
}
