/**
 * Without DATA_DIR, a CLI command opens the running deployment's data (a db-server answering), else existing data,
 * else a new database, and says which: never a new empty database beside the real one without a word.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { cliConfig, findDataDir } from '../../src/cli/data-dir.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'folio-datadir-'));
let listener: Server | undefined;
afterAll(async () => {
  await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
  rmSync(root, { recursive: true, force: true });
});

function dir(name: string, contents: { db?: boolean; serverUrl?: string } = {}): string {
  const d = path.join(root, name);
  mkdirSync(d, { recursive: true });
  if (contents.db) mkdirSync(path.join(d, 'pg'), { recursive: true });
  if (contents.serverUrl) writeFileSync(path.join(d, 'db-server.json'), JSON.stringify({ url: contents.serverUrl }));
  return d;
}

describe('the data a CLI command opens without DATA_DIR', () => {
  const config = loadConfig({});

  it('prefers a running deployment, then existing data, else a new database', async () => {
    const empty = dir('cwd-data');
    const existing = dir('old', { db: true });
    expect(await findDataDir(config, [empty, existing])).toEqual({ dir: existing, state: 'existing' });
    expect(await findDataDir(config, [empty, dir('other-empty')])).toEqual({ dir: empty, state: 'new' });

    listener = createServer((s) => s.destroy());
    await new Promise<void>((resolve) => listener!.listen(0, '127.0.0.1', () => resolve()));
    const port = (listener.address() as { port: number }).port;
    const running = dir('running', { db: true, serverUrl: `postgres://folio@127.0.0.1:${port}/folio` });
    expect(await findDataDir(config, [existing, running])).toEqual({ dir: running, state: 'running' });
    // A db-server.json left by a stopped server does not count as running.
    const stale = dir('stale', { db: true, serverUrl: 'postgres://folio@127.0.0.1:9/folio' });
    expect(await findDataDir(config, [stale, empty])).toEqual({ dir: stale, state: 'existing' });
  });

  it('says which data it opened, and changes nothing when DATA_DIR or DATABASE_URL is set', async () => {
    const said: string[] = [];
    const opened = await cliConfig(config, (line) => said.push(line));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`opened ${opened.dataDir}`);
    expect(said[0]).toMatch(/DATA_DIR is not set/);

    const set = loadConfig({ DATA_DIR: path.join(root, 'explicit') });
    expect(await cliConfig(set, (line) => said.push(line))).toBe(set);
    const server = loadConfig({ DATABASE_URL: 'postgres://folio@127.0.0.1:5432/folio' });
    expect(await cliConfig(server, (line) => said.push(line))).toBe(server);
    expect(said).toHaveLength(1);
  });
});
