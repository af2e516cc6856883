/**
 * PDF exports (`pdf_exports`, `pdf_export_links`): one row per printed revision and scope, the state of its print
 * run and the PDF's blob; the temporary download URLs by the SHA-256 of their secret.
 */
import { newId } from './ids.js';
import { json, toDate, toDateOrNull } from './sql-helpers.js';
import type { PdfExportRecord, PdfExportScope, PdfExportStatus, PdfExportStore, Sql } from './types/index.js';

interface ExportRow {
  id: string;
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  revision_id: string;
  page_id: string | null;
  only_page: boolean;
  attempt: number;
  status: string;
  blob_hash: string | null;
  pages: number | null;
  pdf_pages: number | null;
  bytes: string | number | null;
  warnings: unknown;
  error_code: string | null;
  error_message: string | null;
  created_at: unknown;
  finished_at: unknown;
}

const COLUMNS =
  'id, organization_id, space_id, change_request_id, revision_id, page_id, only_page, attempt, status, blob_hash, pages, pdf_pages, bytes, warnings, error_code, error_message, created_at, finished_at';
const E_COLUMNS = COLUMNS.split(', ')
  .map((c) => `e.${c}`)
  .join(', ');

function fromRow(row: ExportRow): PdfExportRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    revisionId: row.revision_id,
    pageId: row.page_id,
    only: row.only_page,
    attempt: Number(row.attempt),
    status: row.status as PdfExportStatus,
    blobHash: row.blob_hash,
    pages: row.pages === null ? null : Number(row.pages),
    pdfPages: row.pdf_pages === null ? null : Number(row.pdf_pages),
    bytes: row.bytes === null ? null : Number(row.bytes),
    warnings: (typeof row.warnings === 'string' ? JSON.parse(row.warnings) : row.warnings) as string[],
    error: row.error_code !== null ? { code: row.error_code, message: row.error_message ?? '' } : null,
    createdAt: toDate(row.created_at),
    finishedAt: toDateOrNull(row.finished_at),
  };
}

/** One export per revision, change request, page and `only`. */
function scopeKey(s: PdfExportScope): string {
  return [s.revisionId, s.changeRequestId ?? '', s.pageId ?? '', s.only && s.pageId !== null ? 'only' : 'tree'].join('|');
}

export function createPdfExportStore(sql: Sql): PdfExportStore {
  return {
    async ensure(scope) {
      const rows = await sql.query<ExportRow & { inserted: boolean }>(
        `INSERT INTO pdf_exports (id, organization_id, space_id, change_request_id, revision_id, page_id, only_page, scope_key, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'running')
         ON CONFLICT (scope_key) DO UPDATE SET attempt = pdf_exports.attempt + 1, status = 'running', error_code = NULL,
           error_message = NULL, finished_at = NULL, created_at = now()
         WHERE pdf_exports.status = 'failed'
         RETURNING ${COLUMNS}`,
        [
          newId(),
          scope.organizationId,
          scope.spaceId,
          scope.changeRequestId,
          scope.revisionId,
          scope.pageId,
          scope.only && scope.pageId !== null,
          scopeKey(scope),
        ],
      );
      if (rows[0]) return { record: fromRow(rows[0]), started: true };
      const existing = await sql.query<ExportRow>(`SELECT ${COLUMNS} FROM pdf_exports WHERE scope_key = $1`, [scopeKey(scope)]);
      return { record: fromRow(existing[0]!), started: false };
    },
    async get(organizationId, id) {
      const rows = await sql.query<ExportRow>(`SELECT ${COLUMNS} FROM pdf_exports WHERE id = $1 AND organization_id = $2`, [id, organizationId]);
      return rows[0] ? fromRow(rows[0]) : null;
    },
    async succeed(id, attempt, result) {
      const rows = await sql.query<ExportRow>(
        `UPDATE pdf_exports SET status = 'succeeded', blob_hash = $3, pages = $4, pdf_pages = $5, bytes = $6, warnings = $7, finished_at = now()
         WHERE id = $1 AND attempt = $2 AND status = 'running' RETURNING ${COLUMNS}`,
        [id, attempt, result.blobHash, result.pages, result.pdfPages, result.bytes, json(result.warnings)],
      );
      return rows[0] ? fromRow(rows[0]) : null;
    },
    async fail(id, attempt, error) {
      const rows = await sql.query<ExportRow>(
        `UPDATE pdf_exports SET status = 'failed', error_code = $3, error_message = $4, finished_at = now()
         WHERE id = $1 AND attempt = $2 AND status = 'running' RETURNING ${COLUMNS}`,
        [id, attempt, error.code, error.message.slice(0, 2000)],
      );
      return rows[0] ? fromRow(rows[0]) : null;
    },
    async createLink(exportId, tokenHash, expiresAt) {
      await sql.query('INSERT INTO pdf_export_links (token_hash, export_id, expires_at) VALUES ($1, $2, $3)', [tokenHash, exportId, expiresAt]);
    },
    async byLink(tokenHash) {
      const rows = await sql.query<ExportRow & { link_expires_at: unknown }>(
        `SELECT ${E_COLUMNS}, l.expires_at AS link_expires_at FROM pdf_export_links l JOIN pdf_exports e ON e.id = l.export_id WHERE l.token_hash = $1`,
        [tokenHash],
      );
      return rows[0] ? { record: fromRow(rows[0]), expiresAt: toDate(rows[0].link_expires_at) } : null;
    },
  };
}
