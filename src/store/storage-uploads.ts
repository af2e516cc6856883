/**
 * Files uploaded through signed URLs (`storage_uploads`): the slot made by `POST /v1/orgs/{org}/storage/upload`,
 * found again by its URL's secret (only its SHA-256 is stored) when the bytes are put, and read by key, within its
 * organization, by a file import run.
 */
import type { BlobStore, Sql, StorageUploadKind, StorageUploadRecord, StorageUploadStore } from './types/index.js';
import { toDate, toDateOrNull } from './sql-helpers.js';

interface UploadRow {
  key: string;
  organization_id: string;
  kind: string;
  name: string;
  content_type: string;
  size: string | number;
  blob_hash: string | null;
  created_by: string | null;
  created_at: unknown;
  expires_at: unknown;
  uploaded_at: unknown;
}

const COLUMNS = 'key, organization_id, kind, name, content_type, size, blob_hash, created_by, created_at, expires_at, uploaded_at';

function fromRow(row: UploadRow): StorageUploadRecord {
  return {
    key: row.key,
    organizationId: row.organization_id,
    kind: row.kind as StorageUploadKind,
    name: row.name,
    contentType: row.content_type,
    size: Number(row.size),
    blobHash: row.blob_hash,
    createdBy: row.created_by,
    createdAt: toDate(row.created_at),
    expiresAt: toDate(row.expires_at),
    uploadedAt: toDateOrNull(row.uploaded_at),
  };
}

export function createStorageUploadStore(sql: Sql, blobs: BlobStore): StorageUploadStore {
  return {
    async create(input) {
      const rows = await sql.query<UploadRow>(
        `INSERT INTO storage_uploads (key, organization_id, kind, name, content_type, size, token_hash, expires_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
        [input.key, input.organizationId, input.kind, input.name, input.contentType, input.size, input.tokenHash, input.expiresAt, input.createdBy ?? null],
      );
      return fromRow(rows[0]!);
    },
    async byToken(tokenHash) {
      const rows = await sql.query<UploadRow>(`SELECT ${COLUMNS} FROM storage_uploads WHERE token_hash = $1`, [tokenHash]);
      return rows[0] ? fromRow(rows[0]) : null;
    },
    async complete(key, bytes) {
      const hash = await blobs.put(bytes);
      const rows = await sql.query<{ key: string }>(
        'UPDATE storage_uploads SET blob_hash = $2, uploaded_at = now() WHERE key = $1 AND uploaded_at IS NULL RETURNING key',
        [key, hash],
      );
      return rows.length > 0;
    },
    async get(organizationId, keys) {
      const out = new Map<string, StorageUploadRecord>();
      if (keys.length === 0) return out;
      const rows = await sql.query<UploadRow>(`SELECT ${COLUMNS} FROM storage_uploads WHERE organization_id = $1 AND key = ANY($2::text[])`, [
        organizationId,
        [...keys],
      ]);
      for (const row of rows) out.set(row.key, fromRow(row));
      return out;
    },
  };
}
