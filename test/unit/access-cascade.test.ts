/**
 * Issue 26: the cascade of roles (src/people/access.ts) with collections slotted in through `CollectionSource` (the
 * store's collections, issue 27): organization role → collections → space, the most permissive of what is
 * inherited and granted at each level; a level that stops inheriting gives members its own default level; guests get
 * only grants; organization admins everything; a read-scoped token is capped at read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessResolver } from '../../src/people/access.js';
import type { MemberRole, SpaceRecord, Store } from '../../src/store/index.js';
import { createTestStore } from '../helpers/store.js';

let store: Store;
const ORG = 'cascade';
/** The collections' ids by name: outer ⊃ inner, closed (stops inheriting, members get nothing), foreign (another organization's). */
const ids: Record<'outer' | 'inner' | 'closed' | 'foreign', string> = { outer: '', inner: '', closed: '', foreign: '' };
const cli = { via: 'cli' as const };

async function member(role: MemberRole | null): Promise<string> {
  const user = await store.users.create({ displayName: `M ${role ?? 'guest'}` });
  await store.members.add(ORG, user.id, { role }, cli);
  return user.id;
}
const as = (userId: string, scope: 'read' | 'write' = 'write') =>
  new AccessResolver(store, { kind: 'user', userId, organizationId: ORG, tokenId: null, scope });
const space = async (parent: keyof typeof ids | null, defaultLevel: SpaceRecord['defaultLevel'] = 'inherit') => {
  const s = await store.spaces.create(ORG, { title: 'S', ...(parent ? { parent: ids[parent] } : {}) });
  return defaultLevel === 'inherit' ? s : store.spaces.update(s.id, { defaultLevel });
};

beforeAll(async () => {
  store = await createTestStore();
  await store.orgs.create({ id: ORG, title: 'Cascade' });
  await store.orgs.create({ id: 'elsewhere', title: 'Elsewhere' });
  ids.outer = (await store.collections.create(ORG, { title: 'Outer' })).id;
  ids.inner = (await store.collections.create(ORG, { title: 'Inner', parent: ids.outer })).id;
  ids.closed = (await store.collections.update((await store.collections.create(ORG, { title: 'Closed' })).id, { defaultLevel: null })).id;
  ids.foreign = (await store.collections.create('elsewhere', { title: 'Foreign' })).id;
});
afterAll(async () => {
  await store?.close();
});

describe('the cascade of roles', () => {
  it('organization role → collection → space: grants on an outer collection reach the spaces of inner ones; the most permissive wins', async () => {
    const reader = await member('read');
    const team = await store.teams.create(ORG, { title: 'Writers', members: [reader] }, cli);
    const s = await space('inner');
    expect(await as(reader).spaceRole(s)).toBe('read');
    await store.permissions.set(ORG, { kind: 'collection', id: ids.outer }, [{ kind: 'team', id: team.id }], 'edit', cli);
    expect(await as(reader).spaceRole(s)).toBe('edit');
    await store.permissions.set(ORG, { kind: 'collection', id: ids.inner }, [{ kind: 'user', id: reader }], 'comment', cli);
    expect(await as(reader).spaceRole(s)).toBe('edit');
    await store.permissions.set(ORG, { kind: 'space', id: s.id }, [{ kind: 'user', id: reader }], 'review', cli);
    expect(await as(reader).spaceRole(s)).toBe('review');
    // A creator keeps their organization role where the collection grants less.
    const creator = await member('create');
    await store.permissions.set(ORG, { kind: 'collection', id: ids.outer }, [{ kind: 'user', id: creator }], 'comment', cli);
    expect(await as(creator).spaceRole(s)).toBe('create');
    // Read-scoped tokens read.
    expect(await as(reader, 'read').spaceRole(s)).toBe('read');
  });

  it('a level that stops inheriting: members get its default level, grants above it no longer count', async () => {
    const editor = await member('edit');
    const closed = await space('closed');
    expect(await as(editor).spaceRole(closed)).toBeNull();
    await store.permissions.set(ORG, { kind: 'collection', id: ids.closed }, [{ kind: 'user', id: editor }], 'read', cli);
    expect(await as(editor).spaceRole(closed)).toBe('read');
    const own = await space('outer', 'comment');
    await store.permissions.set(ORG, { kind: 'collection', id: ids.outer }, [{ kind: 'user', id: editor }], 'admin', cli);
    expect(await as(editor).spaceRole(own)).toBe('comment');
    const hidden = await space(null, null);
    expect(await as(editor).spaceRole(hidden)).toBeNull();
    expect(await as(await member('admin')).spaceRole(hidden)).toBe('admin');
  });

  it('guests get only what is granted, to them or to their teams; a collection of another organization is not a parent', async () => {
    const guest = await member(null);
    const s = await space('inner');
    expect(await as(guest).spaceRole(s)).toBeNull();
    await store.permissions.set(ORG, { kind: 'collection', id: ids.outer }, [{ kind: 'user', id: guest }], 'comment', cli);
    expect(await as(guest).spaceRole(s)).toBe('comment');
    const stray = await space('foreign');
    expect(await as(guest).spaceRole(stray)).toBeNull();
    const reader = await member('read');
    expect(await as(reader).spaceRole(stray)).toBe('read');
    // Several spaces at once: one query of grants, the same answers.
    const roles = await as(guest).spaceRoles([s, stray]);
    expect([roles.get(s.id), roles.get(stray.id)]).toEqual(['comment', null]);
  });
});
