import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGitSyncActivities } from '../../activities/git-sync.js';
import { loadConfig } from '../../src/config/config.js';
import type { Store } from '../../src/store/index.js';
import { startGitServer, type GitServer } from './git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from './loopback-policy.js';
import { testLogger } from './logger.js';
import { createTestStore } from './store.js';

/** What activity-level git sync tests run on: a work directory, a test store with organization `org`, the loopback git server and the git sync activities. */
export interface GitSyncBed {
  work: string;
  store: Store;
  server: GitServer;
  acts: ReturnType<typeof createGitSyncActivities>;
  /** Closes the store, stops the server and removes the work directory. */
  close(): Promise<void>;
}

/** Opens a {@link GitSyncBed}; `name` names the work directory and the logger. The activities run without Temporal. */
export async function openGitSyncBed(name: string): Promise<GitSyncBed> {
  const work = await mkdtemp(path.join(tmpdir(), `folio-${name}-`));
  const store = await createTestStore();
  await store.orgs.ensure({ id: 'org', title: 'Org' });
  const server = await startGitServer();
  const acts = createGitSyncActivities({
    store,
    config: loadConfig({ DATA_DIR: path.join(work, 'data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }),
    logger: testLogger(name),
  });
  return {
    work,
    store,
    server,
    acts,
    async close() {
      await store.close();
      await server.stop();
      await rm(work, { recursive: true, force: true });
    },
  };
}
