/**
 * Content codings through the one guarded fetch, against a real loopback server: the request asks for exactly what
 * the caller takes (`Accept-Encoding: identity` by default), an encoded body that was not asked for is refused
 * (typed, with the response's status kept), and an asked-for coding is decoded as it streams, its decoded bytes
 * counted: a gzip bomb (1 GiB of zeros in 1 MiB) stops at the caller's limit.
 */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchBodyTooLargeError, FetchEncodingRefusedError } from '../../src/net/errors.js';
import { guardedFetch } from '../../src/net/guarded-fetch.js';
import { PoliteFetcher } from '../../src/webimport/polite-fetcher.js';
import { WEBIMPORT_MAX_RESPONSE_BYTES, WebImportResponseTooLargeError, WebImportTooLargeError } from '../../src/webimport/errors.js';
import { gzipZeros } from '../helpers/hostile-archives.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';
import { startSpecServer, type SpecServer } from '../openapi/spec-server.js';

const MiB = 1024 * 1024;
const TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(200);

let server: SpecServer;
const asked: Record<string, string | undefined> = {};
const BOMB = gzipZeros(1024 * MiB);

beforeAll(async () => {
  const encoded =
    (body: Buffer, encoding: string, status = 200) =>
    (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      asked[req.url ?? ''] = req.headers['accept-encoding'];
      res.writeHead(status, { 'content-encoding': encoding, 'content-type': 'text/plain' }).end(body);
    };
  server = await startSpecServer({
    '/gzip': encoded(gzipSync(TEXT), 'gzip'),
    '/x-gzip': encoded(gzipSync(TEXT), 'x-gzip'),
    '/deflate': encoded(deflateSync(TEXT), 'deflate'),
    '/deflate-raw': encoded(deflateRawSync(TEXT), 'deflate'),
    '/br': encoded(brotliCompressSync(TEXT), 'br'),
    '/gzip-then-br': encoded(brotliCompressSync(gzipSync(TEXT)), 'gzip, br'),
    '/empty-gzip': encoded(Buffer.alloc(0), 'gzip'),
    '/truncated-gzip': encoded(gzipSync(TEXT).subarray(0, 40), 'gzip'),
    '/reset-gzip': (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.write(gzipSync(TEXT).subarray(0, 40), () => setTimeout(() => res.socket?.destroy(), 20));
    },
    '/zstd': encoded(Buffer.from('not really zstd'), 'zstd'),
    '/busy-gzip': encoded(gzipSync('busy'), 'gzip', 503),
    '/identity': (req, res) => {
      asked[req.url ?? ''] = req.headers['accept-encoding'];
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(TEXT.length) }).end(TEXT);
    },
    '/bomb': (req, res) => {
      asked[req.url ?? ''] = req.headers['accept-encoding'];
      // Sent whatever the request asked for, as the hostile site of the report did; written in 64 KiB pieces.
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/html' });
      let bombWritten = 0;
      const write = (): void => {
        while (bombWritten < BOMB.length) {
          const piece = BOMB.subarray(bombWritten, bombWritten + 64 * 1024);
          bombWritten += piece.length;
          if (!res.write(piece)) {
            res.once('drain', write);
            return;
          }
        }
        res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      write();
    },
  });
});

afterAll(async () => {
  await server.close();
});

async function read(body: AsyncIterable<Buffer>): Promise<{ text: string; bytes: number; error: unknown }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (chunks.length < 1000) chunks.push(chunk);
    }
    return { text: Buffer.concat(chunks).toString('utf8'), bytes, error: null };
  } catch (error) {
    return { text: '', bytes, error };
  }
}

describe('guardedFetch: content codings', () => {
  it('asks for identity unless told otherwise, and refuses an encoded body it did not ask for (status kept)', async () => {
    const res = await guardedFetch(`${server.url}/gzip`, { policy: loopbackPolicy });
    expect(asked['/gzip']).toBe('identity');
    expect(res.status).toBe(200);
    const { error } = await read(res.body);
    expect(error).toBeInstanceOf(FetchEncodingRefusedError);
    expect(error).toMatchObject({ code: 'FETCH_ENCODING_REFUSED', retryable: false, data: { encoding: 'gzip', acceptEncoding: 'identity' } });

    const busy = await guardedFetch(`${server.url}/busy-gzip`, { policy: loopbackPolicy });
    expect(busy.status).toBe(503); // the caller still sees the status (and may retry); only the body is refused
    busy.body.destroy();

    // A caller's own Accept-Encoding header does not bypass the guard's decoding.
    const sneaky = await guardedFetch(`${server.url}/gzip`, { policy: loopbackPolicy, headers: { 'Accept-Encoding': 'gzip' } });
    expect(asked['/gzip']).toBe('identity');
    expect((await read(sneaky.body)).error).toBeInstanceOf(FetchEncodingRefusedError);
  });

  it('decodes gzip, x-gzip, deflate (zlib or raw), br and stacked codings it asked for; an empty encoded body is empty', async () => {
    for (const path of ['/gzip', '/x-gzip', '/deflate', '/deflate-raw', '/br', '/gzip-then-br']) {
      const res = await guardedFetch(`${server.url}${path}`, { policy: loopbackPolicy, acceptEncoding: ['gzip', 'deflate', 'br'], maxBodyBytes: MiB });
      expect(asked[path], path).toBe('gzip, deflate, br, identity;q=0.5');
      const { text, error } = await read(res.body);
      expect(error, path).toBeNull();
      expect(text, path).toBe(TEXT);
    }
    const empty = await guardedFetch(`${server.url}/empty-gzip`, { policy: loopbackPolicy, acceptEncoding: ['gzip'], maxBodyBytes: MiB });
    expect(await read(empty.body)).toEqual({ text: '', bytes: 0, error: null });
  });

  it('a truncated encoded body fails to read, never taken as complete', async () => {
    for (const path of ['/truncated-gzip', '/reset-gzip']) {
      const res = await guardedFetch(`${server.url}${path}`, { policy: loopbackPolicy, acceptEncoding: ['gzip'], maxBodyBytes: MiB });
      const { error } = await read(res.body);
      expect(error, path).toBeInstanceOf(Error);
    }
  });

  it('refuses a coding it asked for only in part, or cannot decode', async () => {
    const br = await guardedFetch(`${server.url}/br`, { policy: loopbackPolicy, acceptEncoding: ['gzip'], maxBodyBytes: MiB });
    expect((await read(br.body)).error).toMatchObject({ code: 'FETCH_ENCODING_REFUSED', data: { encoding: 'br' } });
    const zstd = await guardedFetch(`${server.url}/zstd`, { policy: loopbackPolicy, acceptEncoding: ['gzip', 'deflate', 'br'], maxBodyBytes: MiB });
    expect((await read(zstd.body)).error).toMatchObject({ code: 'FETCH_ENCODING_REFUSED', data: { encoding: 'zstd' } });
  });

  it('counts the body against maxBodyBytes: a declared Content-Length over it is refused unread', async () => {
    const res = await guardedFetch(`${server.url}/identity`, { policy: loopbackPolicy, maxBodyBytes: 100 });
    const { bytes, error } = await read(res.body);
    expect(bytes).toBe(0);
    expect(error).toBeInstanceOf(FetchBodyTooLargeError);
    expect(error).toMatchObject({ code: 'FETCH_BODY_TOO_LARGE', data: { limit: 100, declared: TEXT.length } });
  });

  it('stops a gzip bomb (1 GiB of zeros in 1 MiB) at the limit, counting decoded bytes', async () => {
    expect(BOMB.length).toBeLessThan(1.1 * MiB);
    const limit = 16 * MiB;
    const res = await guardedFetch(`${server.url}/bomb`, { policy: loopbackPolicy, acceptEncoding: ['gzip'], maxBodyBytes: limit });
    const { bytes, error } = await read(res.body);
    expect(error).toBeInstanceOf(FetchBodyTooLargeError);
    expect(error).toMatchObject({ code: 'FETCH_BODY_TOO_LARGE', data: { limit, stage: 'gzip' } });
    expect(bytes).toBeLessThanOrEqual(limit);

    // Not asked for, the same bomb is refused before a byte of it is decoded.
    const unasked = await guardedFetch(`${server.url}/bomb`, { policy: loopbackPolicy, maxBodyBytes: limit });
    expect(asked['/bomb']).toBe('identity');
    expect(await read(unasked.body)).toMatchObject({ bytes: 0, error: { code: 'FETCH_ENCODING_REFUSED' } });
  });

  it("the website import's fetcher asks for gzip, deflate and br and stops a bomb at its per-response limit, naming it", async () => {
    const fetcher = new PoliteFetcher({ policy: loopbackPolicy, concurrency: 1, delayMs: 0, timeoutMs: 30_000, retries: 0, maxResponseBytes: 8 * MiB });
    const err = await fetcher.get(`${server.url}/bomb`).catch((e: unknown) => e);
    expect(asked['/bomb']).toBe('gzip, deflate, br, identity;q=0.5');
    // One response too large is that URL's failure (a typed warning of the run: WEBIMPORT_PAGE_TOO_LARGE or
    // WEBIMPORT_ASSET_TOO_LARGE), not the run's.
    expect(err).toBeInstanceOf(WebImportResponseTooLargeError);
    expect(err).toMatchObject({ code: 'WEBIMPORT_RESPONSE_TOO_LARGE', data: { limit: 8 * MiB, url: `${server.url}/bomb` } });
    expect((err as Error).message).toBe(`${server.url}/bomb is larger than 8388608 bytes, the most one response may have`);
  });
});

describe('WEBIMPORT_TOO_LARGE messages name the limit that was hit, with its value', () => {
  it('one response over the fixed per-response cap (WEBIMPORT_MAX_BYTES larger) does not blame WEBIMPORT_MAX_BYTES', () => {
    const err = new WebImportTooLargeError(WEBIMPORT_MAX_RESPONSE_BYTES, 'https://example.test/big.pdf');
    expect(err.message).toBe('https://example.test/big.pdf is larger than 268435456 bytes (256 MiB), the most one response of a website import may hold');
    expect(err.message).not.toContain('WEBIMPORT_MAX_BYTES');
    expect(err.data).toEqual({ limit: WEBIMPORT_MAX_RESPONSE_BYTES, scope: 'response', url: 'https://example.test/big.pdf' });
  });

  it('the whole import over WEBIMPORT_MAX_BYTES names it with its value', () => {
    const err = new WebImportTooLargeError(512 * MiB);
    expect(err.message).toBe('the import exceeds 536870912 bytes (512 MiB), the limit of WEBIMPORT_MAX_BYTES');
  });
});
