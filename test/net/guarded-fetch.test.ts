import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { HostAllowlist } from '../../src/net/allowlist.js';
import { FetchAddressDeniedError, FetchRedirectError, FetchUrlRefusedError } from '../../src/net/errors.js';
import { guardedFetch } from '../../src/net/guarded-fetch.js';
import { DEFAULT_FETCH_POLICY, fetchPolicyFromConfig, type FetchPolicy, type ResolvedAddress } from '../../src/net/policy.js';
import { startSpecServer, type SpecServer } from '../openapi/spec-server.js';

/**
 * The fetch guard on a real loopback server. Only 127.0.0.1 is ever connected to: every other address in
 * these tests is refused before a socket is opened (IP literals before connecting, names inside `lookup`).
 */
let server: SpecServer;

beforeAll(async () => {
  server = await startSpecServer({
    '/ok': { body: 'ok' },
    '/auth': (req, res) => void res.writeHead(200).end(req.headers.authorization ?? 'none'),
    '/echo': (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(200).end(`${req.method} ${Buffer.concat(chunks).toString()}`));
    },
    '/post-307': { status: 307, headers: { location: '/echo' } },
    '/post-303': { status: 303, headers: { location: '/echo' } },
    '/same-origin': { status: 302, headers: { location: '/auth' } },
  });
});

afterAll(async () => {
  await server.close();
});

/** A resolver that answers from a table, as a public DNS name pointing at an internal address would. */
function resolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    asked.push(host);
    const answers = table[host];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

function policy(allow: string[], extra: Partial<FetchPolicy> = {}): FetchPolicy {
  return { ...fetchPolicyFromConfig({ fetchDenyPrivateNetworks: true, fetchAllowHosts: allow }), ...extra };
}

async function refusal(p: Promise<unknown>): Promise<FetchAddressDeniedError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchAddressDeniedError);
  return err as FetchAddressDeniedError;
}

describe('guardedFetch: secure by default', () => {
  it('refuses a loopback server without an allowlist: typed, non-retryable, naming FETCH_ALLOW_HOSTS, nothing sent', async () => {
    const before = server.hits.length;
    const err = await refusal(guardedFetch(`${server.url}/ok`));
    expect(err.code).toBe('FETCH_PRIVATE_ADDRESS_DENIED');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('FETCH_ALLOW_HOSTS');
    expect(err.data).toMatchObject({ address: '127.0.0.1', setting: 'FETCH_ALLOW_HOSTS' });
    expect(server.hits.length).toBe(before);
  });

  it('refuses metadata, IPv6 loopback, IPv4-mapped and unique-local literals before connecting', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${server.port}/ok`,
      `http://[::ffff:127.0.0.1]:${server.port}/ok`,
      'http://[fd00::1]/x',
      'http://10.0.0.1/x',
      'http://0.0.0.0/x',
      `http://127.0.0.2:${server.port}/ok`,
    ]) {
      const err = await refusal(guardedFetch(url));
      expect(err.code, url).toBe('FETCH_PRIVATE_ADDRESS_DENIED');
    }
    // Allowing 127.0.0.1 allows exactly that address (in either notation), not its neighbours.
    await refusal(guardedFetch(`http://127.0.0.2:${server.port}/ok`, { policy: policy(['127.0.0.1']) }));
    await refusal(guardedFetch('http://169.254.169.254/', { policy: policy(['127.0.0.1', 'fd00::/8']) }));
    const mapped = await guardedFetch(`http://[::ffff:127.0.0.1]:${server.port}/ok`, { policy: policy(['127.0.0.1']) });
    expect(mapped.status).toBe(200);
    mapped.body.resume();
  });

  it('checks the resolved address: a public-looking name resolving to 127.0.0.1 is refused', async () => {
    const dns = resolver({ 'docs.example.com': ['127.0.0.1'], 'mixed.example.com': ['93.184.216.34', '127.0.0.1'] });
    const before = server.hits.length;
    const err = await refusal(guardedFetch(`http://docs.example.com:${server.port}/ok`, { policy: { ...DEFAULT_FETCH_POLICY, resolve: dns.resolve } }));
    expect(err.data).toMatchObject({ host: 'docs.example.com', address: '127.0.0.1' });
    // A public decoy next to the private address does not make the name acceptable.
    await refusal(guardedFetch(`http://mixed.example.com:${server.port}/ok`, { policy: { ...DEFAULT_FETCH_POLICY, resolve: dns.resolve } }));
    expect(dns.asked).toEqual(['docs.example.com', 'mixed.example.com']);
    expect(server.hits.length).toBe(before);
  });

  it('with FETCH_DENY_PRIVATE_NETWORKS=false the guard lets private addresses through', async () => {
    const res = await guardedFetch(`${server.url}/ok`, { policy: fetchPolicyFromConfig(loadConfig({ FETCH_DENY_PRIVATE_NETWORKS: 'false' })) });
    expect(res.status).toBe(200);
    res.body.resume();
  });

  it('refuses non-http URLs', async () => {
    for (const url of ['file:///etc/passwd', 'gopher://x/', 'not a url']) {
      await expect(guardedFetch(url, { policy: policy(['127.0.0.1']) }), url).rejects.toBeInstanceOf(FetchUrlRefusedError);
    }
  });
});

describe('guardedFetch: FETCH_ALLOW_HOSTS', () => {
  it('allows an IP, a CIDR (IPv4 and IPv4-mapped), or a hostname whatever it resolves to', async () => {
    const dns = resolver({ 'git.internal': ['127.0.0.1'] });
    for (const [allow, url] of [
      [['127.0.0.1'], `${server.url}/ok`],
      [['127.0.0.0/8'], `${server.url}/ok`],
      [['10.0.0.0/8', ' 127.0.0.0/30 '], `${server.url}/ok`],
      [['git.internal'], `http://git.internal:${server.port}/ok`],
      [['GIT.internal.'], `http://git.internal:${server.port}/ok`],
      [['::ffff:127.0.0.0/104'], `${server.url}/ok`],
    ] as const) {
      const res = await guardedFetch(url, { policy: policy([...allow], { resolve: dns.resolve }) });
      expect(res.status, allow.join(',')).toBe(200);
      expect((await res.body.toArray()).join('')).toBe('ok');
    }
    // A name allowlist does not allow another name that resolves to the same address, nor the address itself.
    const other = resolver({ 'evil.example.com': ['127.0.0.1'] });
    await refusal(guardedFetch(`http://evil.example.com:${server.port}/ok`, { policy: policy(['git.internal'], { resolve: other.resolve }) }));
    await refusal(guardedFetch(`${server.url}/ok`, { policy: policy(['git.internal']) }));
    // A CIDR allows only what it covers.
    await refusal(guardedFetch(`${server.url}/ok`, { policy: policy(['127.0.0.2/32', '10.0.0.0/8']) }));
  });

  it('parses hosts, IPv4/IPv6 addresses and CIDRs, and refuses malformed entries at startup naming the setting', () => {
    const list = HostAllowlist.parse(' git.internal , 10.1.2.3, 192.168.0.0/16, fd00::/8, [::1] ,');
    expect(list.allowsHost('git.internal')).toBe(true);
    expect(list.allowsHost('other.internal')).toBe(false);
    expect(list.allowsAddress('10.1.2.3')).toBe(true);
    expect(list.allowsAddress('10.1.2.4')).toBe(false);
    expect(list.allowsAddress('192.168.77.1')).toBe(true);
    expect(list.allowsAddress('::ffff:192.168.77.1')).toBe(true);
    expect(list.allowsAddress('fd12::5')).toBe(true);
    expect(list.allowsAddress('fe80::1')).toBe(false);
    expect(list.allowsAddress('::1')).toBe(true);
    for (const bad of ['10.0.0.0/33', 'fd00::/129', 'http://x', 'a b', '10.0.0.0/x']) {
      expect(() => loadConfig({ FETCH_ALLOW_HOSTS: bad }), bad).toThrow(/FETCH_ALLOW_HOSTS/);
    }
  });

  it('the default configuration denies private networks and allows nothing', () => {
    const config = loadConfig({});
    expect(config.fetchDenyPrivateNetworks).toBe(true);
    expect(config.fetchAllowHosts).toEqual([]);
    expect(loadConfig({ FETCH_ALLOW_HOSTS: '127.0.0.1,::1' }).fetchAllowHosts).toEqual(['127.0.0.1', '::1']);
  });
});

describe('guardedFetch: redirects', () => {
  it('checks every hop: a redirect from an allowed server to a denied address is refused before connecting', async () => {
    const dns = resolver({ 'internal.example.com': ['127.0.0.2'], 'metadata.example.com': ['169.254.169.254'] });
    server.routes.set('/to-metadata', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/iam' } });
    server.routes.set('/to-v6', { status: 301, headers: { location: `http://[::1]:${server.port}/ok` } });
    server.routes.set('/to-name', { status: 307, headers: { location: `http://internal.example.com:${server.port}/ok` } });
    server.routes.set('/to-metadata-name', { status: 308, headers: { location: 'http://metadata.example.com/' } });
    const p = policy(['127.0.0.1'], { resolve: dns.resolve });
    for (const path of ['/to-metadata', '/to-v6', '/to-name', '/to-metadata-name']) {
      const before = server.hits.length;
      const err = await refusal(guardedFetch(`${server.url}${path}`, { policy: p }));
      expect(err.message, path).toContain('FETCH_ALLOW_HOSTS');
      expect(server.hits.slice(before), path).toEqual([path]); // only the allowed first hop was contacted
    }
  });

  it('follows allowed redirects, keeps credentials within the origin and drops them across origins', async () => {
    const dns = resolver({ 'other.test': ['127.0.0.1'] });
    server.routes.set('/cross-origin', { status: 302, headers: { location: `http://other.test:${server.port}/auth` } });
    const p = policy(['127.0.0.1'], { resolve: dns.resolve });
    const headers = { authorization: 'Basic c2VjcmV0' };
    const same = await guardedFetch(`${server.url}/same-origin`, { policy: p, headers });
    expect((await same.body.toArray()).join('')).toBe('Basic c2VjcmV0');
    expect(same.redirects).toEqual([`${server.url}/same-origin`]);
    const cross = await guardedFetch(`${server.url}/cross-origin`, { policy: p, headers });
    expect(cross.url).toBe(`http://other.test:${server.port}/auth`);
    expect((await cross.body.toArray()).join('')).toBe('none');
  });

  it('replays the body on 307, turns 303 into a GET, and bounds the number of hops', async () => {
    const p = policy(['127.0.0.1']);
    const body = new TextEncoder().encode('0032want abc');
    const kept = await guardedFetch(`${server.url}/post-307`, {
      policy: p,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-git-upload-pack-request' },
    });
    expect((await kept.body.toArray()).join('')).toBe('POST 0032want abc');
    const seeOther = await guardedFetch(`${server.url}/post-303`, { policy: p, method: 'POST', body });
    expect((await seeOther.body.toArray()).join('')).toBe('GET ');
    server.routes.set('/loop', { status: 302, headers: { location: '/loop' } });
    await expect(guardedFetch(`${server.url}/loop`, { policy: p, maxRedirects: 2 })).rejects.toBeInstanceOf(FetchRedirectError);
  });
});
