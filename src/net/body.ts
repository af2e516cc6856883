/**
 * The body of a guarded response (src/net/guarded-fetch.ts), as a serious HTTP client reads it: the content codings
 * the caller asked for in `Accept-Encoding` are decoded here as the body streams (gzip, deflate — zlib-wrapped or,
 * as some servers send it, raw — and br, chained codings in reverse order); a coding that was not asked for, or
 * that Folio cannot decode, is refused (RFC 9110 §12.5.3: an `Accept-Encoding` that does not list a coding says
 * the client does not want it; a server that sends it anyway gets an error, never a guess). Bytes are counted as
 * they come out of each stage, the raw ones too: past `maxBytes` the body fails with {@link FetchBodyTooLargeError}
 * and the connection is closed, so a decompression bomb never holds more than the limit (plus the streams' buffers)
 * whatever it declares. zlib and brotli run on libuv's thread pool, off the event loop.
 */
import type http from 'node:http';
import { Duplex, pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { FetchBodyTooLargeError, FetchEncodingRefusedError } from './errors.js';

/** The content codings the guard can decode. */
export type ContentCoding = 'gzip' | 'deflate' | 'br';

export const CONTENT_CODINGS: readonly ContentCoding[] = ['gzip', 'deflate', 'br'];

/** Content codings stacked on one body beyond which it is refused (curl allows 5; real servers send 1). */
const MAX_CODINGS = 3;

export interface BodyOptions {
  url: string;
  method: string;
  /** The codings asked for (empty: `identity` only). */
  accept: readonly ContentCoding[];
  /** Largest body in bytes, raw and decoded (undefined: not counted). */
  maxBytes: number | undefined;
}

/** The `Accept-Encoding` value that asks for exactly `accept` (`identity` when it is empty). */
export function acceptEncodingHeader(accept: readonly ContentCoding[]): string {
  return accept.length === 0 ? 'identity' : `${[...new Set(accept)].join(', ')}, identity;q=0.5`;
}

/** The codings of a `Content-Encoding` header, in the order they were applied (`identity` left out), lower case. */
export function parseContentEncoding(value: string | string[] | undefined): string[] {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * The body of `response` as the caller reads it: decoded and counted, or failing on first read with the reason it
 * is refused. Destroying it closes the connection.
 */
export function responseBody(response: http.IncomingMessage, options: BodyOptions): Readable {
  const status = response.statusCode ?? 0;
  const codings = parseContentEncoding(response.headers['content-encoding']).map((c) => (c === 'x-gzip' ? 'gzip' : c));
  const bodiless = options.method === 'HEAD' || status === 204 || status === 304;
  if (bodiless || (codings.length === 0 && options.maxBytes === undefined)) return response;
  const refusal = refuse(codings, options);
  if (refusal) {
    response.destroy();
    return failing(refusal);
  }
  const declared = Number(response.headers['content-length']);
  if (options.maxBytes !== undefined && Number.isFinite(declared) && declared > options.maxBytes) {
    response.destroy();
    return failing(new FetchBodyTooLargeError(options.url, options.maxBytes, { declared }));
  }
  const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const stages: Array<Transform | Duplex> = [new Counter(options.url, max, 'raw')];
  for (const coding of [...codings].reverse()) stages.push(new Decoder(coding as ContentCoding, options.url, max));
  const streams = [response, ...stages] as const;
  // pipeline() listens for every stream's errors and destroys the others on one; the reader gets it from the last.
  return pipeline(streams as unknown as [Readable, ...Transform[]], () => undefined) as unknown as Readable;
}

function refuse(codings: string[], options: BodyOptions): FetchEncodingRefusedError | null {
  const asked = acceptEncodingHeader(options.accept);
  if (codings.length > MAX_CODINGS) return new FetchEncodingRefusedError(options.url, codings.join(', '), asked, `more than ${MAX_CODINGS} codings`);
  for (const coding of codings) {
    if (!(CONTENT_CODINGS as readonly string[]).includes(coding))
      return new FetchEncodingRefusedError(options.url, codings.join(', '), asked, `${coding} is not a coding Folio decodes`);
    if (!options.accept.includes(coding as ContentCoding))
      return new FetchEncodingRefusedError(options.url, codings.join(', '), asked, `${coding} was not asked for`);
  }
  return null;
}

/** A stream that fails with `error` when it is first read (and never when it is only destroyed). */
function failing(error: Error): Readable {
  return new Readable({
    read() {
      this.destroy(error);
    },
  });
}

/** Counts the bytes that pass; past `max` the stream fails with FetchBodyTooLargeError. */
class Counter extends Transform {
  private seen = 0;
  constructor(
    private readonly url: string,
    private readonly max: number,
    private readonly stage: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.byteLength;
    if (this.seen > this.max) callback(new FetchBodyTooLargeError(this.url, this.max, { stage: this.stage }));
    else callback(null, chunk);
  }
}

/**
 * One content coding undone, its output counted. The decompressor is made on the first byte (so an empty body is an
 * empty body, and `deflate` can tell a zlib stream from a raw one); its output is paused while the reader is behind.
 */
class Decoder extends Duplex {
  private inner: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress | null = null;
  private produced = 0;

  constructor(
    private readonly coding: ContentCoding,
    private readonly url: string,
    private readonly max: number,
  ) {
    super();
  }

  private start(first: number): NonNullable<Decoder['inner']> {
    const inner =
      this.coding === 'gzip'
        ? zlib.createGunzip()
        : this.coding === 'br'
          ? zlib.createBrotliDecompress()
          : (first & 0x0f) === 8
            ? zlib.createInflate()
            : zlib.createInflateRaw();
    inner.on('data', (chunk: Buffer) => {
      this.produced += chunk.byteLength;
      if (this.produced > this.max) {
        this.destroy(new FetchBodyTooLargeError(this.url, this.max, { stage: this.coding }));
        return;
      }
      if (!this.push(chunk)) inner.pause();
    });
    inner.once('end', () => this.push(null));
    inner.once('error', (err) => this.destroy(err));
    this.inner = inner;
    return inner;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (chunk.byteLength === 0) {
      callback();
      return;
    }
    const inner = this.inner ?? this.start(chunk[0]!);
    inner.write(chunk, () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.inner) {
      this.push(null);
      callback();
      return;
    }
    this.inner.end(() => callback());
  }

  override _read(): void {
    this.inner?.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(error);
  }
}
