/**
 * Issue 26: the first start makes the organization's owner — a user who is its admin — and prints the owner's
 * personal token once; later starts make nothing; a store from before people existed gets its owner (its tokens stay
 * service tokens); FOLIO_BOOTSTRAP_TOKEN becomes the owner's token, idempotently.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/bootstrap.js';
import type { Store } from '../../src/store/index.js';
import { createTestStore } from '../helpers/store.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('bootstrap', () => {
  it('on an empty store: the organization, its owner (admin) and the owner’s personal token, once', async () => {
    store = await createTestStore();
    const first = await bootstrap(store, { organizationId: 'default' });
    expect(first).toMatchObject({ organizationId: 'default', createdOrganization: true, createdOwner: true, token: expect.stringMatching(/^folio_/) });
    expect(await store.tokens.verify(first.token!)).toMatchObject({ orgId: 'default', userId: first.ownerId });
    expect(await store.members.get('default', first.ownerId!)).toMatchObject({ role: 'admin', user: { displayName: 'Owner' } });
    const second = await bootstrap(store, { organizationId: 'default' });
    expect(second).toMatchObject({ createdOrganization: false, createdOwner: false, ownerId: first.ownerId });
    expect(second.token).toBeUndefined();
    expect((await store.members.list('default', { limit: 10 })).total).toBe(1);
    expect((await store.audit.list('default', { limit: 10 })).items[0]).toMatchObject({ action: 'member.add', actor: { via: 'bootstrap' } });
  });

  it('a store from before people: the organization gets an owner, its service tokens stay what they are', async () => {
    store = await createTestStore();
    await store.orgs.create({ id: 'default', title: 'Old' });
    const old = await store.tokens.create('default', { label: 'bootstrap' });
    const boot = await bootstrap(store, { organizationId: 'default' });
    expect(boot).toMatchObject({ createdOrganization: false, createdOwner: true });
    expect(boot.token).toBeUndefined();
    expect(await store.tokens.verify(old.token)).toMatchObject({ userId: null });
  });

  it('FOLIO_BOOTSTRAP_TOKEN is the owner’s personal token, the same across restarts', async () => {
    store = await createTestStore();
    const token = 'folio_fixed-bootstrap-token-for-the-test';
    const first = await bootstrap(store, { organizationId: 'default', token });
    const second = await bootstrap(store, { organizationId: 'default', token });
    expect(second.ownerId).toBe(first.ownerId);
    expect(await store.tokens.verify(token)).toMatchObject({ orgId: 'default', userId: first.ownerId });
    expect((await store.tokens.list('default')).length).toBe(1);
  });
});
