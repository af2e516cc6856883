/**
 * Where the bytes of blobs live when not in the `blobs` table: files in a directory, or objects in an S3-compatible
 * bucket. The rows of `blobs` stay the truth of which blobs exist (garbage collection and its lock work on them); a
 * content backend only keeps the bytes, named by their sha256.
 */
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { redact } from '../redact.js';
import { StoreUnavailableError } from './errors.js';
import { sha256Hex } from './hash.js';
import { newId } from './ids.js';
import type { S3BlobOptions } from './types/index.js';

export interface BlobContent {
  readonly kind: 'directory' | 's3';
  /** Stores the bytes of the blob `hash` (idempotent: the same hash is the same bytes). */
  write(hash: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when the backend has none. */
  read(hash: string): Promise<Uint8Array | null>;
  /** Removes the bytes of these blobs; missing ones are no error. */
  remove(hashes: readonly string[]): Promise<void>;
  /** Prepares the backend (creates the bucket when asked); throws when it cannot be reached. */
  open(): Promise<void>;
  /** Releases its connections. */
  close(): void;
}

export function directoryContent(dir: string): BlobContent {
  const root = path.resolve(dir);
  const fileOf = (hash: string) => path.join(root, hash.slice(0, 2), hash.slice(2));
  return {
    kind: 'directory',
    close() {},
    async open() {
      await mkdir(root, { recursive: true });
    },
    async write(hash, bytes) {
      const target = fileOf(hash);
      try {
        if ((await stat(target)).size === bytes.byteLength) return;
      } catch {
        // missing: write it
      }
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${newId(8)}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, target);
    },
    async read(hash) {
      try {
        return new Uint8Array(await readFile(fileOf(hash)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async remove(hashes) {
      for (const h of hashes) await rm(fileOf(h), { force: true });
    },
  };
}

/** Requests to the object store at once from one blob operation. */
const S3_CONCURRENCY = 16;
/** Keys one DeleteObjects request may name (the S3 limit). */
const S3_DELETE_BATCH = 1000;

/** Runs `fn` over `items` with at most `limit` at once; the first error is thrown once all started ones ended. */
export async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const lane = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure !== null) throw (failure as { err: unknown }).err;
}

function statusOf(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata?.httpStatusCode : undefined;
}

function isNotFound(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || name === 'NoSuchBucket' || statusOf(err) === 404;
}

/**
 * An object-store failure as Folio's error: a network failure or a 5xx/429/503 answer is StoreUnavailableError
 * (retryable); any other answer (access denied, no such bucket...) an Error naming the operation, the bucket and the
 * server's code, never the credentials.
 */
function s3Error(what: string, bucket: string, err: unknown): Error {
  const status = statusOf(err);
  const name = (err as { name?: unknown } | null)?.name;
  const message = redact(err instanceof Error ? err.message : String(err));
  const detail = `object store: ${what} in bucket ${bucket} failed: ${typeof name === 'string' ? `${name}: ` : ''}${message}`;
  if (status === undefined || status >= 500 || status === 429) return new StoreUnavailableError(detail, err);
  return new Error(`${detail} (HTTP ${status})`);
}

export function s3Client(options: S3BlobOptions): S3Client {
  return new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    ...(options.accessKeyId && options.secretAccessKey ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } } : {}),
    // Checksums only where the API requires them: S3-compatible servers differ in the newer checksum headers. Folio
    // checks every object it reads against its sha256 name instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 4,
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000 },
  });
}

export function s3Content(options: S3BlobOptions, client: S3Client = s3Client(options)): BlobContent {
  const { bucket } = options;
  const prefix = options.prefix ?? '';
  const keyOf = (hash: string) => `${prefix}${hash.slice(0, 2)}/${hash.slice(2)}`;
  const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw s3Error(what, bucket, err);
    }
  };
  return {
    kind: 's3',
    close: () => client.destroy(),
    async open() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (err) {
        if (!isNotFound(err) || !options.createBucket) throw s3Error('checking the bucket', bucket, err);
        await call('creating the bucket', () => client.send(new CreateBucketCommand({ Bucket: bucket })));
      }
    },
    async write(hash, bytes) {
      await call(`storing blob ${hash}`, () =>
        client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(hash), Body: bytes, ContentLength: bytes.byteLength })),
      );
    },
    async read(hash) {
      let bytes: Uint8Array;
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(hash) }));
        bytes = await out.Body!.transformToByteArray();
      } catch (err) {
        if (isNotFound(err)) return null;
        throw s3Error(`reading blob ${hash}`, bucket, err);
      }
      if (sha256Hex(bytes) !== hash) throw new Error(`object store: blob ${hash} in bucket ${bucket} does not match its sha256 (corrupt object)`);
      return bytes;
    },
    async remove(hashes) {
      for (let i = 0; i < hashes.length; i += S3_DELETE_BATCH) {
        const Objects = hashes.slice(i, i + S3_DELETE_BATCH).map((h) => ({ Key: keyOf(h) }));
        const out = await call('deleting blobs', () => client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects, Quiet: true } })));
        const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (failed.length > 0) throw s3Error('deleting blobs', bucket, new Error(`${failed.length} not deleted, first: ${failed[0]!.Code} ${failed[0]!.Key}`));
      }
    },
  };
}

export { S3_CONCURRENCY };
