/**
 * Space objects with what they count besides the space row: the change requests of each space (total, open,
 * drafts) and its git sync state, loaded for a whole list at once.
 */
import { gitSyncStateObject } from '../gitsync/info.js';
import type { SpaceRecord, Store } from '../store/index.js';
import { spaceObject, type SpaceFacts } from './objects/space.js';
import type { UrlBuilder } from './objects/urls.js';

export async function spaceFactsOf(store: Pick<Store, 'changeRequests' | 'gitSync'>, spaces: SpaceRecord[]): Promise<Map<string, SpaceFacts>> {
  const ids = spaces.map((s) => s.id);
  const counts = await store.changeRequests.counts(ids);
  const out = new Map<string, SpaceFacts>();
  for (const id of ids) {
    const gitSync = gitSyncStateObject(await store.gitSync.get(id));
    out.set(id, { gitSync, changeRequests: counts.get(id) ?? { total: 0, open: 0, draft: 0 } });
  }
  return out;
}

export async function spaceBodies(store: Pick<Store, 'changeRequests' | 'gitSync'>, spaces: SpaceRecord[], urls: UrlBuilder) {
  const facts = await spaceFactsOf(store, spaces);
  return spaces.map((s) => spaceObject(s, urls, facts.get(s.id)!));
}

export async function spaceBody(store: Pick<Store, 'changeRequests' | 'gitSync'>, space: SpaceRecord, urls: UrlBuilder) {
  return (await spaceBodies(store, [space], urls))[0]!;
}
