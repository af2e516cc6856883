/**
 * Issue 25, "Done when": the embedded database server is killed (SIGKILL) in the middle of a git import, through the
 * real stack — `folio start` (built CLI) with its supervised `db-server`, worker and API, on the suite's Temporal dev
 * server, importing from a real git smart-HTTP server on loopback. The supervisor restarts the database on the same
 * data directory; the worker process survives (same pid, never restarted), the import completes with every page and
 * file, and while the database is away the API answers 503 with `Retry-After`, never another 5xx.
 *
 * The kill lands while the import stores its revision: once the pack has been served, a probe connection asks the
 * database `SELECT 1` in a loop; the embedded server runs one connection's transaction at a time, so a probe left
 * unanswered means the worker holds a transaction open (the revision's, with 32 MiB of file bytes).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { alive, childOf, folioEntry, startFolioProcess, stopFolioProcess, waitHealthy, type FolioProcess } from '../helpers/folio-process.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';

const PAGES = 32;
const FILE_BYTES = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A repository of PAGES pages, each showing an incompressible image of FILE_BYTES. */
async function writeRepository(dir: string): Promise<void> {
  await mkdir(path.join(dir, '.gitbook', 'assets'), { recursive: true });
  const summary = ['# Summary', '', '* [Introduction](README.md)'];
  await writeFile(path.join(dir, 'README.md'), '# Introduction\n\nThe pages of a repository imported while its database dies.\n');
  for (let i = 1; i <= PAGES; i++) {
    await writeFile(path.join(dir, '.gitbook', 'assets', `figure-${i}.png`), randomBytes(FILE_BYTES));
    const text = Array.from({ length: 40 }, (_, j) => `Paragraph ${j} of page ${i}: some *text* with a [link](page-${(i % PAGES) + 1}.md).`).join('\n\n');
    await writeFile(path.join(dir, `page-${i}.md`), `# Page ${i}\n\n![Figure ${i}](.gitbook/assets/figure-${i}.png)\n\n${text}\n`);
    summary.push(`* [Page ${i}](page-${i}.md)`);
  }
  await writeFile(path.join(dir, 'SUMMARY.md'), summary.join('\n') + '\n');
}

/**
 * Resolves once a `SELECT 1` of a probe connection has not been answered within `stallMs` (another connection holds
 * the embedded database's session in a transaction); false if `deadline` passes first or `stop()` says so.
 */
async function waitForHeldTransaction(url: string, stop: () => boolean, stallMs = 500, timeoutMs = 180_000): Promise<boolean> {
  const probe = new pg.Client({ connectionString: url });
  probe.on('error', () => {});
  await probe.connect();
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline && !stop()) {
      const answered = await Promise.race([
        probe.query('SELECT 1').then(
          () => true,
          () => true,
        ),
        sleep(stallMs).then(() => false),
      ]);
      if (!answered) return true;
      await sleep(25);
    }
    return false;
  } finally {
    (probe as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}

const countPages = (pages: Array<{ type?: string; pages?: unknown[] }>): number =>
  pages.reduce((n, p) => n + (p.type === 'document' ? 1 : 0) + countPages((p.pages ?? []) as typeof pages), 0);

describe.runIf(existsSync(folioEntry))('the embedded database server killed in the middle of a git import', () => {
  let work: string;
  let git: GitServer | undefined;
  let folio: FolioProcess | undefined;
  afterAll(async () => {
    if (folio) await stopFolioProcess(folio);
    await git?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the worker survives, the import completes after the database returns, the API answers 503 meanwhile', async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'folio-db-killed-'));
    const dataDir = path.join(work, 'data');
    const source = path.join(work, 'src');
    await writeRepository(source);
    git = await startGitServer();
    await git.createBareRepo('docs', { fromDir: source, branch: 'main', message: 'docs' });

    const port = await freePort();
    const api = `http://127.0.0.1:${port}`;
    const token = `db-killed-${randomBytes(12).toString('hex')}`;
    const queue = `db-killed-${randomBytes(4).toString('hex')}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      FOLIO_TASK_QUEUE: queue,
      FOLIO_TRANSLATION_TASK_QUEUE: `${queue}-translation`,
      FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
      FOLIO_BOOTSTRAP_ORG: 'acme',
      FOLIO_BOOTSTRAP_TOKEN: token,
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    folio = startFolioProcess(env);
    await waitHealthy(api, folio);
    const worker = childOf(folio.child.pid!, 'worker');
    expect(worker).not.toBeNull();
    const { url: dbUrl, pid: dbPid } = JSON.parse(readFileSync(path.join(dataDir, 'db-server.json'), 'utf8')) as { url: string; pid: number };

    const call = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(api + p, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? (JSON.parse(text) as any) : undefined };
    };
    const created = await call('POST', '/v1/orgs/acme/spaces', { title: 'Docs' });
    expect(created.status).toBe(201);
    const spaceId = created.body.id as string;
    const queued = await call('POST', `/v1/spaces/${spaceId}/git/import`, {
      url: git.url('docs'),
      ref: 'refs/heads/main',
      timestamp: new Date().toISOString(),
    });
    expect(queued.status).toBe(204);

    // Once the pack has been served, the import parses and stores: wait until it holds a transaction, then kill.
    const packServed = () => git!.requests.some((r) => r.method === 'POST' && r.path.endsWith('/git-upload-pack') && r.status === 200);
    for (let i = 0; i < 1200 && !packServed(); i++) await sleep(100);
    expect(packServed()).toBe(true);
    const finished = async () => (await call('GET', `/v1/spaces/${spaceId}/git/info`)).body?.operation?.state !== 'running';
    let done = false;
    const held = await waitForHeldTransaction(dbUrl, () => done);
    expect(held, 'the import never held a transaction (it finished first?)').toBe(true);
    process.kill(dbPid, 'SIGKILL');
    for (let i = 0; i < 200 && alive(dbPid); i++) await sleep(50);
    expect(alive(dbPid)).toBe(false);
    done = true;

    // Asked of the API while the database is away, until it answers again (checked below).
    const answers: Array<{ status: number; retryAfter: string | null }> = [];
    const end = Date.now() + 180_000;
    for (;;) {
      const res = await call('GET', '/v1/orgs/acme/spaces').catch((err: Error) => ({ status: -1, retryAfter: null, body: err.message }));
      answers.push({ status: res.status, retryAfter: res.retryAfter });
      if (res.status === 200 || Date.now() > end) break;
      await sleep(200);
    }
    const { pid: restartedPid } = JSON.parse(readFileSync(path.join(dataDir, 'db-server.json'), 'utf8')) as { pid: number };
    expect(restartedPid).not.toBe(dbPid);

    // The import completes once the database is back.
    let info: any;
    for (let i = 0; i < 1500; i++) {
      info = (await call('GET', `/v1/spaces/${spaceId}/git/info`)).body;
      if (info?.operation && info.operation.state !== 'running' && info.queue?.running === null) break;
      await sleep(200);
    }
    expect(info.operation, JSON.stringify(info)).toMatchObject({ state: 'success', direction: 'import' });
    const content = await call('GET', `/v1/spaces/${spaceId}/content`);
    expect(content.status).toBe(200);
    expect(countPages(content.body.pages)).toBe(PAGES + 1);
    expect(content.body.files).toHaveLength(PAGES);

    // The worker never exited: the same process, and the supervisor never saw it go.
    expect(alive(worker!)).toBe(true);
    expect(childOf(folio.child.pid!, 'worker')).toBe(worker);
    const records = folio.output.flatMap((l) => {
      try {
        return [JSON.parse(l) as { proc?: string; msg?: string; level?: number }];
      } catch {
        return [];
      }
    });
    expect(records.filter((r) => r.msg?.includes('exited unexpectedly')).map((r) => r.proc)).toEqual(['db']);
    // It saw its connections go (logged) and went on.
    expect(records.some((r) => r.proc === 'worker' && r.msg?.includes('database connection lost'))).toBe(true);
    expect(await finished()).toBe(true);

    // The API, while the database was away: 503 with Retry-After (a few times: restarting takes seconds), never another 5xx.
    expect(answers.at(-1)!.status).toBe(200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(a.status).toBe(503);
      expect(a.retryAfter).toMatch(/^[1-9]\d*$/);
    }
  }, 600_000);
});
