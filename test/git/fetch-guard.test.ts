import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRef, hasObject, openCache, push, type RepoCache } from '../../src/git/index.js';
import { fetchPolicyFromConfig, type FetchPolicy, type ResolvedAddress } from '../../src/net/policy.js';
import { corpusDir } from '../../src/project-root.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

/**
 * Git smart-HTTP goes through the fetch guard: without an allowlist a loopback remote is refused before any
 * request reaches it; redirects are followed by the guard, checked on every hop, and never carry credentials to
 * another origin. Only 127.0.0.1 is ever connected to.
 */
const AUTH = { username: 'folio-bot', password: 'guard-Secret-42' };
let server: GitServer;
let work: string;

interface Redirector {
  url: string;
  /** Requests seen: method, path and whether an Authorization header came along. */
  seen: Array<{ method: string; path: string; authorization: boolean }>;
  close(): Promise<void>;
}

/** A loopback server that answers every request with `status` to `target` + the same path and query. */
async function startRedirector(target: (pathAndQuery: string) => string, status = 307): Promise<Redirector> {
  const seen: Redirector['seen'] = [];
  const srv = http.createServer((req, res) => {
    seen.push({ method: req.method ?? 'GET', path: req.url ?? '/', authorization: req.headers.authorization !== undefined });
    req.resume();
    res.writeHead(status, { location: target(req.url ?? '/') }).end();
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

let n = 0;
async function newCache(): Promise<RepoCache> {
  return openCache({
    root: path.join(work, 'caches'),
    scope: { organizationId: 'org-test', spaceId: 'space-test' },
    url: server.url('small'),
    ref: 'main',
    repoCacheID: `guard-${n++}`,
  });
}

async function caught(p: Promise<unknown>): Promise<{ code: string; message: string; retryable: boolean; data: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; message: string; retryable: boolean; data: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
}

function onlyAllow(hosts: string[], resolve?: (host: string) => Promise<ResolvedAddress[]>): FetchPolicy {
  return { ...fetchPolicyFromConfig({ fetchDenyPrivateNetworks: true, fetchAllowHosts: hosts }), ...(resolve ? { resolve } : {}) };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-git-guard-'));
  server = await startGitServer();
  await server.createBareRepo('small', { fromDir: path.join(corpusDir(), 'GitbookIO+git-sync-normalization') });
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('git over the fetch guard', () => {
  it('refuses http://127.0.0.1 without an allowlist (typed, naming FETCH_ALLOW_HOSTS); nothing is requested or fetched', async () => {
    const cache = await newCache();
    const before = server.requests.length;
    const err = await caught(fetchRef({ cache, url: server.url('small'), ref: 'main' }));
    expect(err.code).toBe('FETCH_PRIVATE_ADDRESS_DENIED');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('FETCH_ALLOW_HOSTS');
    expect(err.data).toMatchObject({ address: '127.0.0.1', setting: 'FETCH_ALLOW_HOSTS' });
    expect(server.requests.length).toBe(before);
    // With the loopback allowlist the same fetch works; a push without it is refused like the fetch.
    const ok = await fetchRef({ policy: loopbackPolicy, cache, url: server.url('small'), ref: 'main' });
    expect(await hasObject(cache, ok.commit)).toBe(true);
    const afterFetch = server.requests.length;
    const pushErr = await caught(push({ cache, url: server.url('small'), ref: 'other', commit: ok.commit }));
    expect(pushErr.code).toBe('FETCH_PRIVATE_ADDRESS_DENIED');
    expect(server.requests.length).toBe(afterFetch);
  });

  it('checks the resolved address: a public-looking name resolving to 127.0.0.1 is refused unless that name is allowlisted', async () => {
    const resolve = async (host: string): Promise<ResolvedAddress[]> => {
      if (host === 'git.example.com') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    const url = `http://git.example.com:${server.port}/small.git`;
    const before = server.requests.length;
    const err = await caught(fetchRef({ policy: onlyAllow([], resolve), cache: await newCache(), url, ref: 'main' }));
    expect(err.code).toBe('FETCH_PRIVATE_ADDRESS_DENIED');
    expect(err.data.address).toBe('127.0.0.1');
    expect(server.requests.length).toBe(before);
    const ok = await fetchRef({ policy: onlyAllow(['git.example.com'], resolve), cache: await newCache(), url, ref: 'main' });
    expect(ok.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('a redirect from an allowed server to a denied address is refused before connecting', async () => {
    for (const target of [`http://127.0.0.2:${server.port}`, 'http://169.254.169.254', `http://[::1]:${server.port}`]) {
      const redirector = await startRedirector((p) => `${target}${p}`);
      try {
        const before = server.requests.length;
        const err = await caught(fetchRef({ policy: onlyAllow(['127.0.0.1']), cache: await newCache(), url: `${redirector.url}/small.git`, ref: 'main' }));
        expect(err.code, target).toBe('FETCH_PRIVATE_ADDRESS_DENIED');
        expect(err.message, target).toContain('FETCH_ALLOW_HOSTS');
        expect(redirector.seen.length, target).toBe(1);
        expect(server.requests.length, target).toBe(before);
      } finally {
        await redirector.close();
      }
    }
  });

  it('a redirect loop or a redirect to file: is a non-retryable FETCH_REFUSED, not a protocol error', async () => {
    for (const [target, status] of [
      [(p: string) => p, 302],
      [() => 'file:///etc/passwd', 301],
    ] as const) {
      const redirector = await startRedirector(target, status);
      try {
        const err = await caught(fetchRef({ policy: loopbackPolicy, cache: await newCache(), url: `${redirector.url}/small.git`, ref: 'main' }));
        expect(err.code).toBe('FETCH_REFUSED');
        expect(err.retryable).toBe(false);
      } finally {
        await redirector.close();
      }
    }
  });

  it('follows an allowed redirect (GET and POST) and does not forward credentials to the other origin', async () => {
    const redirector = await startRedirector((p) => `${server.url('small').replace(/\/small\.git$/, '')}${p}`);
    try {
      const res = await fetchRef({ policy: loopbackPolicy, cache: await newCache(), url: `${redirector.url}/small.git`, ref: 'main' });
      expect(res.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(redirector.seen.map((r) => r.method)).toContain('POST');
    } finally {
      await redirector.close();
    }
    // The credentials offered to the first origin never reach the second one: a server that requires them answers 401.
    const authed = await startGitServer({ auth: AUTH });
    await authed.createBareRepo('small', { fromDir: path.join(corpusDir(), 'GitbookIO+git-sync-normalization') });
    const toAuthed = await startRedirector((p) => `http://127.0.0.1:${authed.port}${p}`);
    try {
      const err = await caught(fetchRef({ policy: loopbackPolicy, cache: await newCache(), url: `${toAuthed.url}/small.git`, ref: 'main', auth: AUTH }));
      expect(err.code).toBe('AUTH_FAILED');
      expect(authed.requests.length).toBeGreaterThan(0);
      expect(authed.requests.every((r) => r.status === 401)).toBe(true);
      expect(JSON.stringify(err)).not.toContain(AUTH.password);
    } finally {
      await toAuthed.close();
      await authed.stop();
    }
  });
});
