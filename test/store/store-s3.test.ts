/**
 * The content-store suite with the `s3` blob store against a real S3-compatible server (S3Proxy, fetched into
 * .tools/lib by src/s3-server/install.ts) on loopback, and what only an object store can do wrong: its objects
 * checked, the rows kept as the truth, a corrupt object refused, a bad key or a down server a clear error.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { blobOptions } from '../../src/cli/open-store.js';
import { startS3Server } from '../../src/s3-server/server.js';
import { sha256Hex } from '../../src/store/hash.js';
import { openStore, type BlobStoreOptions } from '../../src/store/index.js';
import { rawSql } from '../../src/store/raw-sql.js';
import { defineStoreSuite } from './store-suite.js';

const root = await mkdtemp(path.join(os.tmpdir(), 'folio-s3-'));
const server = await startS3Server({ dir: path.join(root, 's3') });
const client = new S3Client({
  endpoint: server.endpoint,
  region: server.region,
  forcePathStyle: true,
  credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
});

afterAll(async () => {
  client.destroy();
  await server.stop();
  await rm(root, { recursive: true, force: true });
});

function s3Options(bucket: string, extra: Partial<BlobStoreOptions> = {}): BlobStoreOptions {
  return {
    kind: 's3',
    bucket,
    region: server.region,
    endpoint: server.endpoint,
    forcePathStyle: true,
    prefix: 'blobs/',
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    createBucket: true,
    ...extra,
  } as BlobStoreOptions;
}

async function objectExists(bucket: string, key: string): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw err;
  }
}

const keyOf = (hash: string) => `blobs/${hash.slice(0, 2)}/${hash.slice(2)}`;

defineStoreSuite('store on PGlite in memory, blobs in an S3-compatible bucket', {
  open: () => openStore({ blobs: s3Options('folio-suite') }),
  contentExists: (hash) => objectExists('folio-suite', keyOf(hash)),
});

describe('s3 blob store', () => {
  const enc = new TextEncoder();

  it('keeps the bytes in the bucket and only the row in the database, shared by two stores', async () => {
    const a = await openStore({ blobs: s3Options('folio-shared') });
    try {
      const bytes = enc.encode(`shared ${Date.now()}`);
      const hash = await a.blobs.put(bytes);
      expect(a.blobs.kind).toBe('s3');
      expect(await objectExists('folio-shared', keyOf(hash))).toBe(true);
      const rows = await rawSql(a).query<{ bytes: unknown; size: number }>('SELECT bytes, size FROM blobs WHERE hash = $1', [hash]);
      expect(rows[0]!.bytes).toBeNull();
      expect(Number(rows[0]!.size)).toBe(bytes.byteLength);
      // 40 blobs at once (the backend writes and reads them 16 at a time), read back in one getMany.
      const many = Array.from({ length: 40 }, (_, i) => enc.encode(`many ${i} ${Date.now()}`));
      const hashes = await a.blobs.putMany(many);
      const got = await a.blobs.getMany([...hashes, '0'.repeat(64)]);
      expect(got.size).toBe(40);
      hashes.forEach((h, i) => expect(got.get(h)).toEqual(many[i]));
    } finally {
      await a.close();
    }
  });

  it('refuses an object whose bytes do not match its name, and answers null for a row whose object is gone', async () => {
    const store = await openStore({ blobs: s3Options('folio-corrupt') });
    try {
      const hash = await store.blobs.put(enc.encode(`intact ${Date.now()}`));
      await client.send(new PutObjectCommand({ Bucket: 'folio-corrupt', Key: keyOf(hash), Body: enc.encode('tampered') }));
      await expect(store.blobs.get(hash)).rejects.toThrow(/does not match its sha256/);
      await client.send(new DeleteObjectCommand({ Bucket: 'folio-corrupt', Key: keyOf(hash) }));
      expect(await store.blobs.get(hash)).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('says which bucket and what failed for a wrong secret key, without the key', async () => {
    const wrong = 'wrong-secret-' + 'x'.repeat(20);
    const err = await openStore({ blobs: s3Options('folio-denied', { secretAccessKey: wrong } as Partial<BlobStoreOptions>) }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(/object store: .*bucket folio-denied/);
    expect(err!.message).not.toContain(wrong);
  });

  it('fails a write while the server is unreachable with a retryable error, the transaction rolled back', async () => {
    const store = await openStore({ blobs: s3Options('folio-down', { endpoint: 'http://127.0.0.1:9' } as Partial<BlobStoreOptions>) }).catch(
      (e: unknown) => e as Error,
    );
    expect(store).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect((store as Error).message).toMatch(/object store: checking the bucket in bucket folio-down failed/);
  });

  it('is what FOLIO_BLOB_STORE=s3 and FOLIO_S3_* configure', async () => {
    const config = loadConfig({
      FOLIO_BLOB_STORE: 's3',
      FOLIO_S3_ENDPOINT: server.endpoint,
      FOLIO_S3_BUCKET: 'folio-config',
      FOLIO_S3_PREFIX: 'blobs/',
      FOLIO_S3_CREATE_BUCKET: 'true',
      FOLIO_S3_ACCESS_KEY_ID: server.accessKeyId,
      FOLIO_S3_SECRET_ACCESS_KEY: server.secretAccessKey,
    });
    const store = await openStore({ blobs: blobOptions(config) });
    try {
      const hash = await store.blobs.put(enc.encode('configured'));
      expect(hash).toBe(sha256Hex(enc.encode('configured')));
      expect(await objectExists('folio-config', keyOf(hash))).toBe(true);
    } finally {
      await store.close();
    }
    expect(() => loadConfig({ FOLIO_BLOB_STORE: 's3' })).toThrow(/FOLIO_S3_BUCKET/);
    expect(() => loadConfig({ FOLIO_S3_BUCKET: 'b1b', FOLIO_S3_ACCESS_KEY_ID: 'k' })).toThrow(/go together/);
  });
});
