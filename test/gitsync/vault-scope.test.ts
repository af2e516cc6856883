import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getGitCredentials, putGitCredentials } from '../../src/gitsync/credentials.js';
import type { Store } from '../../src/store/index.js';
import { createSecretVault } from '../../src/vault/index.js';
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
    const vault = createSecretVault(store.vault, randomBytes(32));
    const mine = await store.spaces.create('org-a', { title: 'Mine' });
    const sibling = await store.spaces.create('org-a', { title: 'Sibling' });
    const theirs = await store.spaces.create('org-b', { title: 'Theirs' });
    const id = await putGitCredentials(vault, mine.id, { username: 'ci', password: 's3cret' });
    expect(await getGitCredentials(vault, id, mine.id)).toEqual({ username: 'ci', password: 's3cret' });
    expect(await getGitCredentials(vault, id, sibling.id)).toBeNull();
    expect(await getGitCredentials(vault, id, theirs.id)).toBeNull();
    await vault.delete(id);
    expect(await getGitCredentials(vault, id, mine.id)).toBeNull();
  });
});
