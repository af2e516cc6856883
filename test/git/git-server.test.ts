import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { corpusDir } from '../../src/project-root.js';

const AUTH = { username: 'alice', password: 'pw-for-server-test' };
let server: GitServer;

function pkt(line: string): string {
  return (line.length + 4).toString(16).padStart(4, '0') + line;
}

beforeAll(async () => {
  server = await startGitServer({ auth: AUTH });
  await server.createBareRepo('repo', { fromDir: path.join(corpusDir(), 'GitbookIO+git-sync-normalization'), branch: 'trunk' });
});
afterAll(async () => {
  await server?.stop();
});

describe('test git server', () => {
  it('asks for basic auth and serves refs to the right credentials', async () => {
    const anon = await fetch(`${server.url('repo')}/info/refs?service=git-upload-pack`);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toMatch(/^Basic /);
    const authorization = `Basic ${Buffer.from(`${AUTH.username}:${AUTH.password}`).toString('base64')}`;
    const ok = await fetch(`${server.url('repo')}/info/refs?service=git-upload-pack`, { headers: { authorization } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(await ok.text()).toContain('refs/heads/trunk');
    expect(server.url('repo')).not.toContain(AUTH.password);
    expect(server.authedUrl('repo')).toContain(AUTH.password);
    const missing = await fetch(`${server.url('nope')}/info/refs?service=git-upload-pack`, { headers: { authorization } });
    expect(missing.status).toBe(404);
  });

  it('accepts gzip-encoded request bodies (as the git CLI sends them)', async () => {
    const head = (await runGit(['--git-dir', path.join(server.root, 'repo.git'), 'rev-parse', 'trunk'])).trim();
    const body = gzipSync(Buffer.from(`${pkt(`want ${head} ofs-delta\n`)}0000${pkt('done\n')}`));
    const res = await fetch(`${server.url('repo')}/git-upload-pack`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${AUTH.username}:${AUTH.password}`).toString('base64')}`,
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
      },
      body,
    });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 8).toString()).toBe('0008NAK\n');
    expect(bytes.includes(Buffer.from('PACK'))).toBe(true);
  });

  it('lets the git CLI clone, push a new branch and be declined on a protected one', async () => {
    const dir = path.join(server.root, '..', `cli-${process.pid}-${Date.now()}`);
    await runGit(['clone', '--quiet', server.authedUrl('repo'), dir]);
    await runGit(['commit', '--quiet', '--allow-empty', '-m', 'cli'], { cwd: dir });
    await runGit(['push', '--quiet', 'origin', 'HEAD:refs/heads/feature'], { cwd: dir });
    expect(await runGit(['--git-dir', path.join(server.root, 'repo.git'), 'branch', '--list'])).toContain('feature');
    await server.protectBranch('repo', 'trunk');
    await expect(runGit(['push', '--quiet', 'origin', 'HEAD:trunk'], { cwd: dir })).rejects.toThrow(/pre-receive hook declined/);
    await runGit(['push', '--quiet', 'origin', 'HEAD:refs/heads/feature2'], { cwd: dir });
    const { rm } = await import('node:fs/promises');
    await rm(dir, { recursive: true, force: true });
  });
});
