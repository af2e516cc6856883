/**
 * Issue 25, item 1: the git import activity heartbeats while its pages parse. Before, it heartbeat only when it read a
 * file: with every file read at once and slow pages parsing for longer than the heartbeat timeout (60 s in the
 * workflow), Temporal timed the attempt out, retried it, and the abandoned attempt's pages kept the parse pool busy
 * (six attempts, none finished). Here three slow pages parse one after the other (one thread, 4 s each): the
 * heartbeats go on through the parsing, counting the pages loaded, and the import completes with the pages kept raw.
 * The thread keeps its priority (FOLIO_PARSE_NICE 0): demoted to nice 19, as in production, on a machine whose cores
 * other processes keep busy (`stress-ng --cpu 2`) it got about 3% of a core, and the 12 s of CPU time the pages take
 * lasted minutes, past this test's timeout. Demotion is tested in `test/parse-pool/fair-scheduling.test.ts`. Those 12 s of
 * CPU time take about 2 minutes of wall time when the machine's load is 14 on 2 cores: the test's timeout allows that.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncActivities } from '../../activities/git-sync.js';
import { loadConfig } from '../../src/config/config.js';
import type { Store } from '../../src/store/index.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { gitSyncRequests } from '../helpers/git-sync-request.js';
import { testLogger } from '../helpers/logger.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { createTestStore } from '../helpers/store.js';

const SLOW = (n: number) => `# Slow ${n}\n\n${'**_'.repeat(40_000 + n)}\n`;

let work: string;
let store: Store;
let server: GitServer;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-import-heartbeats-'));
  store = await createTestStore();
  await store.orgs.ensure({ id: 'org', title: 'Org' });
  server = await startGitServer();
  const src = path.join(work, 'src');
  await mkdir(src, { recursive: true });
  await writeFile(path.join(src, 'README.md'), '# Slow pages\n');
  for (let n = 1; n <= 3; n++) await writeFile(path.join(src, `slow-${n}.md`), SLOW(n));
  await writeFile(path.join(src, 'SUMMARY.md'), '# Table of contents\n\n* [Slow pages](README.md)\n* [1](slow-1.md)\n* [2](slow-2.md)\n* [3](slow-3.md)\n');
  await server.createBareRepo('slow', { fromDir: src, branch: 'main', message: 'slow pages' });
});

afterAll(async () => {
  await store?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('git import heartbeats', () => {
  it('keep going while pages parse, with the pages loaded so far', async () => {
    const config = loadConfig({
      DATA_DIR: path.join(work, 'data'),
      FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
      FOLIO_PARSE_THREADS: '1',
      FOLIO_PARSE_TIME_BUDGET_MS: '4000',
      FOLIO_PARSE_NICE: '0',
    });
    const acts = createGitSyncActivities({ store, config, logger: testLogger('import-heartbeats') });
    const space = await store.spaces.create('org', { title: 'Slow' });
    const request = gitSyncRequests(server.url)(space.id, 'slow', 'import');
    const env = new MockActivityEnvironment();
    const beats: Array<{ at: number; details: Record<string, unknown> }> = [];
    env.on('heartbeat', (details: unknown) => beats.push({ at: performance.now(), details: details as Record<string, unknown> }));
    const started = performance.now();
    const result = await env.run(acts.gitImportActivity, request);
    const ended = performance.now();

    expect(result.outcome).toBe('applied');
    expect(result.detail).toMatch(/FORMAT_PAGE_TOO_COMPLEX: slow-1\.md, slow-2\.md, slow-3\.md/);
    // The three pages took at least their 12 s of budget one after the other: heartbeats all along, never 10 s apart.
    expect(ended - started).toBeGreaterThan(12_000);
    const times = [started, ...beats.map((b) => b.at), ended];
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps)).toBeLessThan(10_000);
    // While parsing they say how many pages are done.
    const parsing = beats.filter((b) => b.details.phase === 'parsing' && typeof b.details.pagesLoaded === 'number');
    expect(parsing.map((b) => b.details.pagesToLoad)).toContain(4);
    expect(Math.max(...parsing.map((b) => b.details.pagesLoaded as number))).toBe(4);
  }, 300_000);
});
