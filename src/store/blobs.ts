import { ValidationError } from '../errors.js';
import { type BlobContent, directoryContent, eachLimited, s3Content, S3_CONCURRENCY } from './blob-content.js';
import { checkBlobHash, isBlobHash, sha256Hex } from './hash.js';
import { insertRows, toBytes } from './sql-helpers.js';
import type { BlobStore, BlobStoreOptions, Sql } from './types/index.js';

/**
 * Advisory-lock key guarding blob deletion: writers of blob references take it shared, garbage
 * collection and purge take it exclusive, so a blob cannot vanish between "it exists" and "a page
 * references it" (in the directory store, neither its row nor its file).
 */
export const BLOB_GC_LOCK_KEY = 0x666f6c696f62;

const DEFAULT_PIN_MS = 3600_000;

/** What the other store modules need from a blob backend, beyond the public BlobStore. */
export interface BlobBackend extends BlobStore {
  /** Inside `tx`: makes every given blob stored (rows, and content where missing). */
  storeWithin(tx: Sql, items: ReadonlyMap<string, Uint8Array>): Promise<void>;
  /** Inside `tx`, holding the exclusive GC lock: deletes the given blob rows that nothing references; returns them. */
  deleteWithin(tx: Sql, candidates: readonly string[] | 'all'): Promise<string[]>;
  /** Removes the content of deleted blobs (files); call while the exclusive lock is still held. */
  removeContent(hashes: readonly string[]): Promise<void>;
}

interface Reference {
  table: string;
  column: string;
}

/**
 * Columns naming blobs without a foreign key (dropped for speed: migration 017): references all the same. Their
 * writers check the blobs exist while holding the blob lock shared.
 */
export const SOFT_BLOB_REFERENCES: readonly Reference[] = [
  { table: 'revision_pages', column: '"body_hash"' },
  { table: 'revision_files', column: '"hash"' },
];

/** Every column that names a blob: the foreign keys to `blobs`, and `SOFT_BLOB_REFERENCES`. */
async function blobReferences(sql: Sql): Promise<Reference[]> {
  const rows = await sql.query<{ tbl: string; col: string }>(
    `SELECT c.conrelid::regclass::text AS tbl, a.attname AS col
       FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f' AND c.confrelid = 'blobs'::regclass AND array_length(c.conkey, 1) = 1
      ORDER BY 1, 2`,
  );
  const found = rows.map((r) => ({ table: r.tbl, column: `"${r.col.replace(/"/g, '""')}"` }));
  const known = new Set(found.map((r) => `${r.table}.${r.column}`));
  return [...found, ...SOFT_BLOB_REFERENCES.filter((r) => !known.has(`${r.table}.${r.column}`))];
}

function notReferenced(refs: Reference[]): string {
  return refs.map((r) => `NOT EXISTS (SELECT 1 FROM ${r.table} x WHERE x.${r.column} = b.hash)`).join(' AND ') || 'TRUE';
}

function checkBytes(bytes: unknown): Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new ValidationError('blob content must be a Uint8Array');
  return bytes;
}

/** The content backend of these options: null when the bytes live in the `blobs` rows. */
export function blobContentOf(options: BlobStoreOptions): BlobContent | null {
  if (options.kind === 'directory') return directoryContent(options.dir);
  if (options.kind === 's3') return s3Content(options);
  return null;
}

async function existing(tx: Sql, hashes: readonly string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await tx.query<{ hash: string }>('SELECT hash FROM blobs WHERE hash = ANY($1::text[])', [hashes as string[]]);
  return new Set(rows.map((r) => r.hash));
}

async function storeWithin(tx: Sql, content: BlobContent | null, items: ReadonlyMap<string, Uint8Array>, pinMs?: number): Promise<void> {
  if (items.size === 0) return;
  await tx.query('SELECT pg_advisory_xact_lock_shared($1)', [BLOB_GC_LOCK_KEY]);
  const hashes = [...items.keys()];
  const have = await existing(tx, hashes);
  const missing = hashes.filter((h) => !have.has(h));
  if (content) {
    // Content first (idempotent), then the rows. Existing rows have their content: deletion removes both
    // while holding the exclusive lock, and we hold it shared.
    await eachLimited(missing, S3_CONCURRENCY, (h) => content.write(h, items.get(h)!));
  }
  const pin = pinMs === undefined ? null : new Date(Date.now() + pinMs);
  if (missing.length > 0) {
    await insertRows(
      tx,
      'blobs',
      ['hash', 'size', 'bytes', 'pinned_until'],
      missing.map((h) => [h, items.get(h)!.byteLength, content ? null : items.get(h)!, pin]),
      { suffix: 'ON CONFLICT (hash) DO NOTHING' },
    );
  }
  if (pin && have.size > 0) {
    await tx.query('UPDATE blobs SET pinned_until = GREATEST(COALESCE(pinned_until, $2), $2) WHERE hash = ANY($1::text[])', [[...have], pin]);
  }
}

async function deleteWithin(tx: Sql, candidates: readonly string[] | 'all'): Promise<string[]> {
  if (candidates !== 'all' && candidates.length === 0) return [];
  await tx.query('SELECT pg_advisory_xact_lock($1)', [BLOB_GC_LOCK_KEY]);
  const refs = await blobReferences(tx);
  const where = `(b.pinned_until IS NULL OR b.pinned_until < now()) AND ${notReferenced(refs)}`;
  const rows =
    candidates === 'all'
      ? await tx.query<{ hash: string }>(`DELETE FROM blobs b WHERE ${where} RETURNING b.hash`)
      : await tx.query<{ hash: string }>(`DELETE FROM blobs b WHERE b.hash = ANY($1::text[]) AND ${where} RETURNING b.hash`, [candidates as string[]]);
  return rows.map((r) => r.hash);
}

async function getMany(sql: Sql, content: BlobContent | null, hashes: readonly string[]): Promise<Map<string, Uint8Array>> {
  const valid = [...new Set(hashes.filter(isBlobHash))];
  const out = new Map<string, Uint8Array>();
  if (valid.length === 0) return out;
  if (content) {
    await eachLimited([...(await existing(sql, valid))], S3_CONCURRENCY, async (hash) => {
      const bytes = await content.read(hash);
      if (bytes) out.set(hash, bytes);
    });
    return out;
  }
  const rows = await sql.query<{ hash: string; bytes: unknown }>('SELECT hash, bytes FROM blobs WHERE hash = ANY($1::text[])', [valid]);
  for (const r of rows) if (r.bytes !== null) out.set(r.hash, toBytes(r.bytes));
  return out;
}

/** Writing blobs: content first (S3 or directory), then the rows, pinned for a while so that a collection cannot take them before they are referenced. */
function createBlobWriter(sql: Sql, content: BlobContent | null): Pick<BlobBackend, 'storeWithin' | 'put' | 'putMany'> {
  async function putMany(list: readonly Uint8Array[], opts: { pinMs?: number } = {}): Promise<string[]> {
    const hashes = list.map((b) => sha256Hex(checkBytes(b)));
    const items = new Map<string, Uint8Array>();
    hashes.forEach((h, i) => items.set(h, list[i]!));
    await sql.transaction((tx) => storeWithin(tx, content, items, opts.pinMs ?? DEFAULT_PIN_MS));
    return hashes;
  }
  return {
    storeWithin: (tx, items) => storeWithin(tx, content, items),
    async put(bytes, opts) {
      const [hash] = await putMany([bytes], opts);
      return hash!;
    },
    putMany,
  };
}

/** Reading blobs: only those with a row exist. */
function createBlobReader(sql: Sql, content: BlobContent | null): Pick<BlobBackend, 'get' | 'getMany' | 'has'> {
  return {
    async get(hash) {
      if (!isBlobHash(hash)) return null;
      if (content) {
        const rows = await sql.query('SELECT 1 FROM blobs WHERE hash = $1', [hash]);
        return rows.length === 0 ? null : content.read(hash);
      }
      const rows = await sql.query<{ bytes: unknown }>('SELECT bytes FROM blobs WHERE hash = $1', [hash]);
      return rows.length === 0 || rows[0]!.bytes === null ? null : toBytes(rows[0]!.bytes);
    },
    getMany: (hashes) => getMany(sql, content, hashes),
    async has(hashes) {
      const valid = hashes.filter(isBlobHash);
      return existing(sql, valid);
    },
  };
}

/** Collecting blobs: rows no longer referenced and not pinned go under the exclusive lock, then their content. */
function createBlobCollector(sql: Sql, content: BlobContent | null): Pick<BlobBackend, 'deleteWithin' | 'removeContent' | 'deleteUnreferenced'> {
  async function removeContent(hashes: readonly string[]): Promise<void> {
    if (content) await content.remove(hashes);
  }
  return {
    deleteWithin,
    removeContent,
    async deleteUnreferenced() {
      const deleted = await sql.transaction(async (tx) => {
        const gone = await deleteWithin(tx, 'all');
        await removeContent(gone);
        return gone;
      });
      return { deleted: deleted.length };
    },
  };
}

export function createBlobStore(sql: Sql, options: BlobStoreOptions, content: BlobContent | null = blobContentOf(options)): BlobBackend {
  return {
    kind: content ? content.kind : 'database',
    ...createBlobWriter(sql, content),
    ...createBlobReader(sql, content),
    ...createBlobCollector(sql, content),
  };
}

export { checkBlobHash };
