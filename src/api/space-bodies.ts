/**
 * Space objects with what they count besides the space row: the change requests of each space (total, open,
 * drafts), its open comments, its git sync state and the caller's role on it (its `permissions`), loaded for a whole list at once.
 */
import { gitSyncStateObject } from '../gitsync/info.js';
import type { MemberRole, SpaceRecord, Store } from '../store/index.js';
import { spaceObject, type SpaceFacts } from './objects/space.js';
import type { UrlBuilder } from './objects/urls.js';

/** Whoever asks: their role on each space (src/people/access.ts's resolver). */
export interface SpaceRoles {
  spaceRoles(spaces: readonly SpaceRecord[]): Promise<Map<string, MemberRole | null>>;
}

export async function spaceFactsOf(
  store: Pick<Store, 'changeRequests' | 'gitSync' | 'comments'>,
  spaces: SpaceRecord[],
  caller: SpaceRoles,
): Promise<Map<string, SpaceFacts>> {
  const ids = spaces.map((s) => s.id);
  const [counts, roles, comments] = await Promise.all([store.changeRequests.counts(ids), caller.spaceRoles(spaces), store.comments.openCounts(ids)]);
  const out = new Map<string, SpaceFacts>();
  for (const id of ids) {
    const gitSync = gitSyncStateObject(await store.gitSync.get(id));
    out.set(id, {
      gitSync,
      changeRequests: counts.get(id) ?? { total: 0, open: 0, draft: 0 },
      comments: comments.spaces.get(id) ?? 0,
      role: roles.get(id) ?? null,
    });
  }
  return out;
}

export async function spaceBodies(store: Pick<Store, 'changeRequests' | 'gitSync' | 'comments'>, spaces: SpaceRecord[], urls: UrlBuilder, caller: SpaceRoles) {
  const facts = await spaceFactsOf(store, spaces, caller);
  return spaces.map((s) => spaceObject(s, urls, facts.get(s.id)!));
}

export async function spaceBody(store: Pick<Store, 'changeRequests' | 'gitSync' | 'comments'>, space: SpaceRecord, urls: UrlBuilder, caller: SpaceRoles) {
  return (await spaceBodies(store, [space], urls, caller))[0]!;
}
