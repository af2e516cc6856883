import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPgliteServer } from '../../src/store/index.js';

/** Issue 17: the embedded database runs with a small buffer pool, and a new data directory is initialised apart. */
describe('the embedded database server’s memory settings', () => {
  const roots: string[] = [];
  afterAll(async () => {
    for (const r of roots) await rm(r, { recursive: true, force: true });
  });

  async function show(url: string, names: string[]): Promise<Record<string, string>> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const out: Record<string, string> = {};
      for (const n of names) out[n] = (await client.query<Record<string, string>>(`SHOW ${n}`)).rows[0]![n]!;
      return out;
    } finally {
      await client.end();
    }
  }

  it('initialises a new data directory, serves it with shared_buffers and maintenance_work_mem at 16 MB, and keeps data across a restart', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'folio-pglite-memory-'));
    roots.push(root);
    const dataDir = path.join(root, 'db');
    const first = await startPgliteServer({ dataDir, socketDir: path.join(root, 'run') });
    try {
      expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
      expect(await show(first.url, ['shared_buffers', 'maintenance_work_mem'])).toEqual({ shared_buffers: '16MB', maintenance_work_mem: '16MB' });
      const client = new pg.Client({ connectionString: first.url });
      await client.connect();
      await client.query('CREATE TABLE kept (v text)');
      await client.query(`INSERT INTO kept VALUES ('still here')`);
      await client.end();
    } finally {
      await first.stop();
    }
    const second = await startPgliteServer({ dataDir, socketDir: path.join(root, 'run'), settings: { work_mem: '8MB' } });
    try {
      expect(await show(second.url, ['shared_buffers', 'work_mem'])).toEqual({ shared_buffers: '16MB', work_mem: '8MB' });
      const client = new pg.Client({ connectionString: second.url });
      await client.connect();
      expect((await client.query('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
      await client.end();
    } finally {
      await second.stop();
    }
  });
});
