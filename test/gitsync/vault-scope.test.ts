import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault } from '../../src/gitsync/vault.js';
import type { Store } from '../../src/store/index.js';
import { createTestStore } from '../helpers/store.js';

describe('credential vault: credentials are read back only for the space they came with', () => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore();
    await store.orgs.ensure({ id: 'org-a', title: 'A' });
    await store.orgs.ensure({ id: 'org-b', title: 'B' });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('another space (of this or another organization) gets null for the same credential id', async () => {
    const vault = createVault(store.sql, randomBytes(32));
    const mine = await store.spaces.create('org-a', { title: 'Mine' });
    const sibling = await store.spaces.create('org-a', { title: 'Sibling' });
    const theirs = await store.spaces.create('org-b', { title: 'Theirs' });
    const id = await vault.put(mine.id, { username: 'ci', password: 's3cret' });
    expect(await vault.get(id, mine.id)).toEqual({ username: 'ci', password: 's3cret' });
    expect(await vault.get(id, sibling.id)).toBeNull();
    expect(await vault.get(id, theirs.id)).toBeNull();
    await vault.delete(id);
    expect(await vault.get(id, mine.id)).toBeNull();
  });
});
