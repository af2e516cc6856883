import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FetchDeniedAddressError,
  FetchHttpStatusError,
  FetchNetworkError,
  FetchRedirectLimitError,
  FetchTimeoutError,
  FetchTooLargeError,
  FetchUnsupportedUrlError,
} from '../../src/openapi/errors.js';
import { safeFetch } from '../../src/openapi/fetch.js';
import { HostAllowlist } from '../../src/net/allowlist.js';
import { DEFAULT_FETCH_POLICY, type ResolvedAddress } from '../../src/net/policy.js';
import { isPrivateAddress } from '../../src/net/private-network.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';
import { startSpecServer, type SpecServer } from './spec-server.js';

let server: SpecServer;
const hanging = new Set<import('node:http').ServerResponse>();

beforeAll(async () => {
  server = await startSpecServer({
    '/ok.json': { body: '{"openapi":"3.1.0"}', headers: { 'content-type': 'application/json' } },
    '/500': { status: 500, body: 'boom' },
    '/404': { status: 404, body: 'nope' },
    '/never': (_req, res) => {
      hanging.add(res); // never answers
    },
    '/slow-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start…'); // and never ends
      hanging.add(res);
    },
    '/big': { body: Buffer.alloc(4096, 'a') },
    '/big-chunked': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }); // no content-length
      for (let i = 0; i < 8; i++) res.write(Buffer.alloc(1024, 'b'));
      res.end();
    },
    '/gzip': { body: zlib.gzipSync('{"gz":true}'), headers: { 'content-encoding': 'gzip' } },
    '/gzip-bomb': { body: zlib.gzipSync(Buffer.alloc(1024 * 1024, 0)), headers: { 'content-encoding': 'gzip' } },
    '/redirect-1': { status: 302, headers: { location: '/redirect-2' } },
    '/redirect-2': { status: 301, headers: { location: 'ok.json' } },
    '/loop': { status: 302, headers: { location: '/loop' } },
    '/to-file': { status: 302, headers: { location: 'file:///etc/passwd' } },
    '/auth': (req, res) => {
      res.writeHead(200).end(req.headers.authorization ?? 'none');
    },
  });
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await server.close();
});

describe('safeFetch', () => {
  it('returns the body, status, content type and final URL', async () => {
    const res = await safeFetch(`${server.url}/ok.json`, { policy: loopbackPolicy, timeoutMs: 5000 });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json');
    expect(res.body.toString()).toBe('{"openapi":"3.1.0"}');
    expect(res.url).toBe(`${server.url}/ok.json`);
    expect(res.redirects).toEqual([]);
  });

  it('follows relative redirects and reports them', async () => {
    const res = await safeFetch(`${server.url}/redirect-1`, { policy: loopbackPolicy, timeoutMs: 5000 });
    expect(res.url).toBe(`${server.url}/ok.json`);
    expect(res.redirects).toEqual([`${server.url}/redirect-1`, `${server.url}/redirect-2`]);
    expect(res.body.toString()).toContain('3.1.0');
  });

  it('limits redirects (FETCH_ERROR)', async () => {
    const err = await safeFetch(`${server.url}/loop`, { policy: loopbackPolicy, timeoutMs: 5000, maxRedirects: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchRedirectLimitError);
    expect((err as FetchRedirectLimitError).code).toBe('FETCH_ERROR');
    expect(server.hits.filter((h) => h === '/loop')).toHaveLength(4);
    const one = await safeFetch(`${server.url}/redirect-1`, { policy: loopbackPolicy, timeoutMs: 5000, maxRedirects: 1 }).catch((e: unknown) => e);
    expect(one).toBeInstanceOf(FetchRedirectLimitError);
  });

  it('refuses a redirect to file:', async () => {
    const err = await safeFetch(`${server.url}/to-file`, { policy: loopbackPolicy, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchUnsupportedUrlError);
    expect((err as FetchUnsupportedUrlError).code).toBe('FETCH_ERROR');
  });

  it('refuses non-http URLs', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'not a url', '/etc/passwd']) {
      const err = await safeFetch(url, { policy: loopbackPolicy, timeoutMs: 1000 }).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(FetchUnsupportedUrlError);
    }
  });

  it('maps HTTP errors to FETCH_ERROR with the status', async () => {
    const err = await safeFetch(`${server.url}/500`, { policy: loopbackPolicy, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchHttpStatusError);
    expect((err as FetchHttpStatusError).code).toBe('FETCH_ERROR');
    expect((err as FetchHttpStatusError).status).toBe(500);
    expect((err as FetchHttpStatusError).retryable).toBe(true);
    const notFound = await safeFetch(`${server.url}/404`, { policy: loopbackPolicy, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect((notFound as FetchHttpStatusError).status).toBe(404);
    expect((notFound as FetchHttpStatusError).retryable).toBe(false);
  });

  it('maps a refused connection to FETCH_ERROR', async () => {
    const closed = await startSpecServer();
    const url = `${closed.url}/x`;
    await closed.close();
    const err = await safeFetch(url, { policy: loopbackPolicy, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchNetworkError);
    expect((err as FetchNetworkError).code).toBe('FETCH_ERROR');
    expect((err as FetchNetworkError).data.detail).toBe('ECONNREFUSED');
  });

  it('times out on a server that never answers (FETCH_TIMEOUT)', async () => {
    const started = Date.now();
    const err = await safeFetch(`${server.url}/never`, { policy: loopbackPolicy, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchTimeoutError);
    expect((err as FetchTimeoutError).code).toBe('FETCH_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('times out on a body that never ends (FETCH_TIMEOUT)', async () => {
    const err = await safeFetch(`${server.url}/slow-body`, { policy: loopbackPolicy, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchTimeoutError);
  });

  it('caps the response size, declared or streamed, and after decompression', async () => {
    for (const path of ['/big', '/big-chunked', '/gzip-bomb']) {
      const err = await safeFetch(`${server.url}${path}`, { policy: loopbackPolicy, timeoutMs: 5000, maxBytes: 2048 }).catch((e: unknown) => e);
      expect(err, path).toBeInstanceOf(FetchTooLargeError);
      expect((err as FetchTooLargeError).code).toBe('FETCH_ERROR');
    }
    const ok = await safeFetch(`${server.url}/big`, { policy: loopbackPolicy, timeoutMs: 5000, maxBytes: 4096 });
    expect(ok.body.length).toBe(4096);
  });

  it('decompresses gzip bodies', async () => {
    const res = await safeFetch(`${server.url}/gzip`, { policy: loopbackPolicy, timeoutMs: 5000 });
    expect(res.body.toString()).toBe('{"gz":true}');
  });

  it('sends URL credentials as basic auth and keeps them out of errors', async () => {
    const authed = server.url.replace('http://', 'http://alice:s3cret@');
    const res = await safeFetch(`${authed}/auth`, { policy: loopbackPolicy, timeoutMs: 5000 });
    expect(res.body.toString()).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
    const err = (await safeFetch(`${authed}/500`, { policy: loopbackPolicy, timeoutMs: 5000 }).catch((e: unknown) => e)) as Error;
    expect(err.message).not.toContain('s3cret');
    expect(JSON.stringify((err as FetchHttpStatusError).data)).not.toContain('s3cret');
  });

  describe('private networks', () => {
    it('refuses loopback IP literals by default, and allows them when the guard is off', async () => {
      const err = await safeFetch(`${server.url}/ok.json`, { policy: DEFAULT_FETCH_POLICY, timeoutMs: 5000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FetchDeniedAddressError);
      expect((err as FetchDeniedAddressError).code).toBe('FETCH_ERROR');
      const before = server.hits.length;
      await safeFetch(`http://[::1]:${server.port}/ok.json`, { policy: DEFAULT_FETCH_POLICY, timeoutMs: 5000 }).catch((e: unknown) => e);
      await safeFetch(`http://[::ffff:127.0.0.1]:${server.port}/ok.json`, { policy: DEFAULT_FETCH_POLICY, timeoutMs: 5000 }).catch((e: unknown) => e);
      expect(server.hits.length).toBe(before); // nothing reached the server
      const off = { denyPrivateNetworks: false, allow: new HostAllowlist() };
      expect((await safeFetch(`${server.url}/ok.json`, { policy: off, timeoutMs: 5000 })).status).toBe(200);
    });

    it('refuses a hostname whose DNS answer is private (system resolver: localhost)', async () => {
      const before = server.hits.length;
      const err = await safeFetch(`http://localhost:${server.port}/ok.json`, { policy: DEFAULT_FETCH_POLICY, timeoutMs: 5000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FetchDeniedAddressError);
      expect(server.hits.length).toBe(before);
    });

    it('checks every redirect hop after DNS resolution', async () => {
      // Two names: "public.test" (allowed) and "internal.test" (denied). Both would reach 127.0.0.x;
      // the policy under test denies only 127.0.0.2, so the first hop connects and the second must not.
      const resolve = async (host: string): Promise<ResolvedAddress[]> => {
        if (host === 'public.test') return [{ address: '127.0.0.1', family: 4 }];
        if (host === 'internal.test') return [{ address: '127.0.0.2', family: 4 }];
        throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      };
      const isDeniedAddress = (ip: string) => ip === '127.0.0.2';
      server.routes.set('/hop', { status: 302, headers: { location: `http://internal.test:${server.port}/ok.json` } });
      server.routes.set('/hop-literal', { status: 307, headers: { location: `http://127.0.0.2:${server.port}/ok.json` } });
      const policy = { denyPrivateNetworks: true, allow: new HostAllowlist(), resolve, isDeniedAddress };
      const opts = { timeoutMs: 5000, policy };

      const ok = await safeFetch(`http://public.test:${server.port}/ok.json`, opts);
      expect(ok.body.toString()).toContain('3.1.0');

      const before = server.hits.length;
      const viaDns = await safeFetch(`http://public.test:${server.port}/hop`, opts).catch((e: unknown) => e);
      expect(viaDns).toBeInstanceOf(FetchDeniedAddressError);
      expect((viaDns as FetchDeniedAddressError).data.address).toBe('127.0.0.2');
      const viaLiteral = await safeFetch(`http://public.test:${server.port}/hop-literal`, opts).catch((e: unknown) => e);
      expect(viaLiteral).toBeInstanceOf(FetchDeniedAddressError);
      expect(server.hits.slice(before)).toEqual(['/hop', '/hop-literal']); // the denied hops never connected

      // A name with one public and one private address is refused as a whole.
      const mixed = async (): Promise<ResolvedAddress[]> => [
        { address: '127.0.0.1', family: 4 },
        { address: '127.0.0.2', family: 4 },
      ];
      const err = await safeFetch(`http://public.test:${server.port}/ok.json`, { ...opts, policy: { ...policy, resolve: mixed } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FetchDeniedAddressError);
    });

    it('maps DNS failures to FETCH_ERROR', async () => {
      const resolve = async (host: string): Promise<ResolvedAddress[]> => {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      };
      const err = await safeFetch('http://nowhere.test/x', { policy: loopbackPolicy, timeoutMs: 5000, resolve }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FetchNetworkError);
      expect((err as FetchNetworkError).data.detail).toBe('ENOTFOUND');
    });
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['::1', true],
    ['::', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:10.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['not-an-ip', true],
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['1.1.1.1', false],
    ['2606:4700:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});
