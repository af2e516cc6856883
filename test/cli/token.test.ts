import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as orgCommand from '../../src/cli/commands/org.js';
import * as tokenCommand from '../../src/cli/commands/token.js';
import { dbServerFile, dbSocketDir, embeddedDataDir } from '../../src/cli/open-store.js';
import { openStore, startPgliteServer, type PgliteServer, type Store } from '../../src/store/index.js';
import { runCommand } from './run-command.js';

/**
 * `folio token create|list|revoke` against a DATA_DIR whose embedded database is served (as under `npm start`)
 * on its unix socket: the CLI finds it through `DATA_DIR/db-server.json`.
 */
describe('folio token', () => {
  let dataDir: string;
  let server: PgliteServer;
  let store: Store;
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-token-cli-'));
    server = await startPgliteServer({ dataDir: embeddedDataDir(dataDir), socketDir: dbSocketDir(dataDir) });
    await writeFile(dbServerFile(dataDir), JSON.stringify({ url: server.url, pid: process.pid }) + '\n');
    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    store = await openStore({ databaseUrl: server.url, poolSize: 2 });
    expect((await runCommand(orgCommand, ['create', 'acme', '--title', 'Acme'])).code).toBe(0);
    expect((await runCommand(orgCommand, ['create', 'globex', '--title', 'Globex'])).code).toBe(0);
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await store?.close();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('creates write and read-only tokens with an expiry, lists them without secrets, revokes one', async () => {
    const writer = await runCommand(tokenCommand, ['create', '--org', 'acme', '--label', 'deploy']);
    expect(writer.code).toBe(0);
    const writeToken = writer.stdout.trim();
    expect(writeToken).toMatch(/^folio_[A-Za-z0-9_-]{43}$/);
    expect(writer.stderr).toMatch(/shown once/);

    const reader = await runCommand(tokenCommand, ['create', '--org', 'acme', '--label', 'docs-bot', '--read-only', '--expires-in', '30d']);
    expect(reader.code).toBe(0);
    const readToken = reader.stdout.trim();
    expect(await store.tokens.verify(writeToken)).toMatchObject({ orgId: 'acme', scope: 'write' });
    const readVerified = await store.tokens.verify(readToken);
    expect(readVerified).toMatchObject({ orgId: 'acme', scope: 'read' });

    const table = await runCommand(tokenCommand, ['list', '--org', 'acme']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]!.split('\t')).toEqual(['id', 'label', 'scope', 'user', 'status', 'created', 'expires', 'revoked', 'last used']);
    expect(lines.slice(1).map((l) => l.split('\t').slice(1, 5))).toEqual([
      ['deploy', 'write', '-', 'active'],
      ['docs-bot', 'read', '-', 'active'],
    ]);
    for (const secret of [writeToken, readToken]) expect(table.stdout + table.stderr).not.toContain(secret);

    const json = await runCommand(tokenCommand, ['list', '--org', 'acme', '--json']);
    const listed = JSON.parse(json.stdout) as Array<{
      id: string;
      label: string;
      scope: string;
      status: string;
      expiresAt: string | null;
      revokedAt: string | null;
    }>;
    const docsBot = listed.find((t) => t.label === 'docs-bot')!;
    expect(docsBot.id).toBe(readVerified!.tokenId);
    const days = (Date.parse(docsBot.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30);
    expect(listed.find((t) => t.label === 'deploy')!.expiresAt).toBeNull();

    // Another organization's token id is not found there, and stays valid.
    expect((await runCommand(tokenCommand, ['revoke', docsBot.id, '--org', 'globex'])).code).toBe(1);
    expect(await store.tokens.verify(readToken)).not.toBeNull();

    const revoked = await runCommand(tokenCommand, ['revoke', docsBot.id, '--org', 'acme']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(docsBot.id);
    expect(await store.tokens.verify(readToken)).toBeNull();
    expect(await store.tokens.verify(writeToken)).not.toBeNull();
    const after = JSON.parse((await runCommand(tokenCommand, ['list', '--org', 'acme', '--json'])).stdout) as typeof listed;
    expect(after.find((t) => t.id === docsBot.id)).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
  });

  it('--user makes a personal token of a member (by id or e-mail) that acts as them; a non-member gets none', async () => {
    const ada = await store.users.create({ displayName: 'Ada', email: 'ada@acme.test' });
    await store.members.add('acme', ada.id, { role: 'edit' }, { via: 'cli' });
    for (const ref of [ada.id, 'ADA@acme.test']) {
      const made = await runCommand(tokenCommand, ['create', '--org', 'acme', '--user', ref, '--label', 'ada']);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stderr).toContain(`personal, user ${ada.id}`);
      expect(await store.tokens.verify(made.stdout.trim())).toMatchObject({ orgId: 'acme', userId: ada.id, scope: 'write' });
    }
    const service = await runCommand(tokenCommand, ['create', '--org', 'acme']);
    expect(await store.tokens.verify(service.stdout.trim())).toMatchObject({ orgId: 'acme', userId: null });
    const outsider = await runCommand(tokenCommand, ['create', '--org', 'globex', '--user', ada.id]);
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toMatch(/not a member of organization globex/);
    expect((await runCommand(tokenCommand, ['create', '--org', 'acme', '--user', 'nobody@acme.test'])).code).toBe(1);
    const listed = JSON.parse((await runCommand(tokenCommand, ['list', '--org', 'acme', '--json'])).stdout) as Array<{ label: string; user: string | null }>;
    expect(listed.filter((t) => t.label === 'ada').map((t) => t.user)).toEqual([ada.id, ada.id]);
  });

  it('refuses bad usage, bad lifetimes and unknown organizations or tokens', async () => {
    expect((await runCommand(tokenCommand, ['list'])).code).toBe(2);
    expect((await runCommand(tokenCommand, ['revoke', '--org', 'acme'])).code).toBe(2);
    expect((await runCommand(tokenCommand, ['rotate', '--org', 'acme'])).code).toBe(2);
    const badLifetime = await runCommand(tokenCommand, ['create', '--org', 'acme', '--expires-in', 'soon']);
    expect(badLifetime.code).toBe(2);
    expect(badLifetime.stderr).toMatch(/--expires-in/);
    expect((await runCommand(tokenCommand, ['create', '--org', 'acme', '--expires-in', '0d'])).code).toBe(2);
    expect((await runCommand(tokenCommand, ['list', '--org', 'nobody'])).code).toBe(1);
    const unknown = await runCommand(tokenCommand, ['revoke', 'no-such-token', '--org', 'acme']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/has no token no-such-token/);
  });
});
