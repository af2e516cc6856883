import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { BLOB_GC_LOCK_KEY, type BlobBackend } from './blobs.js';
import { checkLimit, decodeCursor, paginate } from './cursor.js';
import { checkBlobHash, sha256Hex } from './hash.js';
import { checkId, newId } from './ids.js';
import { insertRows, json, sqlState, toBytes, toDate } from './sql-helpers.js';
import type { FileInput, FileRecord, JsonObject, PageInput, PageRecord, RevisionInput, RevisionRecord, RevisionStore, Sql, SqlParam } from './types/index.js';

const PAGE_KINDS = new Set(['document', 'group', 'link']);
/** Guards against absurd inputs; the git importer has its own, lower, configurable limit. */
const MAX_PAGES = 100_000;
const MAX_FILES = 100_000;

interface RevisionRow {
  id: string;
  seq: string | number;
  space_id: string;
  parents: string[];
  type: string;
  git: RevisionRecord['git'];
  data: JsonObject | null;
  idempotency_key: string | null;
  page_count: number;
  file_count: number;
  created_at: unknown;
}

interface PageRow {
  page_id: string;
  parent_id: string | null;
  position: number;
  kind: PageRecord['kind'];
  title: string;
  slug: string | null;
  path: string | null;
  data: JsonObject | null;
  body_hash: string | null;
}

interface FileRow {
  file_id: string;
  ord: number;
  name: string;
  path: string | null;
  content_type: string | null;
  size: string | number;
  git: FileRecord['git'];
  data: JsonObject | null;
  hash: string | null;
}

const REVISION_COLUMNS = 'id, seq, space_id, parents, type, git, data, idempotency_key, page_count, file_count, created_at';
const PAGE_COLUMNS = 'page_id, parent_id, position, kind, title, slug, path, data, body_hash';
const FILE_COLUMNS = 'file_id, ord, name, path, content_type, size, git, data, hash';

function revisionFromRow(row: RevisionRow): RevisionRecord {
  return {
    id: row.id,
    spaceId: row.space_id,
    parents: row.parents ?? [],
    type: row.type,
    git: row.git ?? null,
    data: row.data ?? {},
    idempotencyKey: row.idempotency_key,
    pageCount: Number(row.page_count),
    fileCount: Number(row.file_count),
    createdAt: toDate(row.created_at),
  };
}

function pageFromRow(row: PageRow): PageRecord {
  return {
    id: row.page_id,
    kind: row.kind,
    title: row.title,
    slug: row.slug,
    path: row.path,
    data: row.data ?? {},
    bodyHash: row.body_hash,
    parentId: row.parent_id,
    position: Number(row.position),
    children: [],
  };
}

function fileFromRow(row: FileRow): FileRecord {
  return {
    id: row.file_id,
    name: row.name,
    path: row.path,
    contentType: row.content_type,
    size: Number(row.size),
    git: row.git ?? null,
    data: row.data ?? {},
    hash: row.hash,
    position: Number(row.ord),
  };
}

function optionalString(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) throw new ValidationError(`${field} must be a string of at most ${max} characters`, { field });
  return value;
}

function jsonObject(value: unknown, field: string): JsonObject {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ValidationError(`${field} must be a JSON object`, { field });
  return value as JsonObject;
}

/** A body given as bytes or as `{ hash }`: its hash, and the bytes to store if given. */
function contentRef(value: unknown, field: string, bytes: Map<string, Uint8Array>, refs: Set<string>): string | null {
  if (value === undefined || value === null) return null;
  if (value instanceof Uint8Array) {
    const hash = sha256Hex(value);
    bytes.set(hash, value);
    return hash;
  }
  if (typeof value === 'object' && 'hash' in value) {
    let hash: string;
    try {
      hash = checkBlobHash((value as { hash: unknown }).hash);
    } catch {
      throw new ValidationError(`${field}.hash must be a sha256 hex string`, { field });
    }
    refs.add(hash);
    return hash;
  }
  throw new ValidationError(`${field} must be a Uint8Array or { hash }`, { field });
}

interface Prepared {
  pageRows: SqlParam[][];
  fileRows: SqlParam[][];
  /** Pages copied from the base revision: their id, order, parent ('' for none: no page id is empty) and position. */
  basePages: { ids: string[]; ords: number[]; parents: string[]; positions: number[] };
  /** Files copied from the base revision: their id and order in this revision. */
  baseFiles: { ids: string[]; ords: number[] };
  pageCount: number;
  fileCount: number;
  bytes: Map<string, Uint8Array>;
  refs: Set<string>;
}

/** Validates the input and flattens the page tree (pre-order, iteratively: deep trees cannot overflow the stack). */
function prepare(input: RevisionInput): Prepared {
  if (!Array.isArray(input.pages)) throw new ValidationError('pages must be an array');
  if (!Array.isArray(input.files)) throw new ValidationError('files must be an array');
  const hasBase = input.base !== undefined && input.base !== null;
  const bytes = new Map<string, Uint8Array>();
  const refs = new Set<string>();
  const pageRows: SqlParam[][] = [];
  const basePages: Prepared['basePages'] = { ids: [], ords: [], parents: [], positions: [] };
  const seen = new Set<string>();
  const stack: { page: PageInput; parent: string | null; position: number }[] = [];
  for (let i = input.pages.length - 1; i >= 0; i--) stack.push({ page: input.pages[i]!, parent: null, position: i });
  while (stack.length > 0) {
    const { page, parent, position } = stack.pop()!;
    if (!page || typeof page !== 'object') throw new ValidationError('each page must be an object');
    const id = checkId('page', page.id);
    if (seen.has(id)) throw new ValidationError(`duplicate page id in revision: ${id}`, { pageId: id });
    const ord = seen.size;
    seen.add(id);
    if (seen.size > MAX_PAGES) throw new ValidationError(`a revision has at most ${MAX_PAGES} pages`);
    if (page.fromBase === true) {
      if (!hasBase) throw new ValidationError(`page ${id}: fromBase without a base revision`, { pageId: id });
      basePages.ids.push(id);
      basePages.ords.push(ord);
      basePages.parents.push(parent ?? '');
      basePages.positions.push(position);
    } else {
      if (!PAGE_KINDS.has(page.kind)) throw new ValidationError(`page ${id}: kind must be document, group or link`, { pageId: id });
      if (typeof page.title !== 'string') throw new ValidationError(`page ${id}: title must be a string`, { pageId: id });
      const slug = optionalString(page.slug, `page ${id} slug`, 1000);
      const pagePath = optionalString(page.path, `page ${id} path`, 4000);
      const data = jsonObject(page.data, `page ${id} data`);
      const body = contentRef(page.body, `page ${id} body`, bytes, refs);
      pageRows.push([id, ord, parent, position, page.kind, page.title, slug, pagePath, json(data), body]);
    }
    const children = page.children ?? [];
    if (!Array.isArray(children)) throw new ValidationError(`page ${id}: children must be an array`, { pageId: id });
    for (let i = children.length - 1; i >= 0; i--) stack.push({ page: children[i]!, parent: id, position: i });
  }
  if (input.files.length > MAX_FILES) throw new ValidationError(`a revision has at most ${MAX_FILES} files`);
  const fileIds = new Set<string>();
  const baseFiles: Prepared['baseFiles'] = { ids: [], ords: [] };
  const fileRows: SqlParam[][] = [];
  input.files.forEach((file: FileInput, ord) => {
    if (!file || typeof file !== 'object') throw new ValidationError('each file must be an object');
    const id = checkId('file', file.id);
    if (fileIds.has(id)) throw new ValidationError(`duplicate file id in revision: ${id}`, { fileId: id });
    fileIds.add(id);
    if (file.fromBase === true) {
      if (!hasBase) throw new ValidationError(`file ${id}: fromBase without a base revision`, { fileId: id });
      baseFiles.ids.push(id);
      baseFiles.ords.push(ord);
      return;
    }
    if (typeof file.name !== 'string' || file.name === '' || file.name.length > 1000)
      throw new ValidationError(`file ${id}: name must be a non-empty string`, { fileId: id });
    if (!Number.isSafeInteger(file.size) || file.size < 0) throw new ValidationError(`file ${id}: size must be a non-negative integer`, { fileId: id });
    if (file.bytes instanceof Uint8Array && file.bytes.byteLength !== file.size)
      throw new ValidationError(`file ${id}: size ${file.size} differs from the ${file.bytes.byteLength} bytes given`, { fileId: id });
    if (file.git !== undefined && (typeof file.git?.oid !== 'string' || typeof file.git?.path !== 'string'))
      throw new ValidationError(`file ${id}: git must be { oid, path }`, { fileId: id });
    const hash = contentRef(file.bytes, `file ${id} bytes`, bytes, refs);
    fileRows.push([
      id,
      ord,
      file.name,
      optionalString(file.path, `file ${id} path`, 4000),
      optionalString(file.contentType, `file ${id} contentType`, 255),
      file.size,
      json(file.git),
      json(jsonObject(file.data, `file ${id} data`)),
      hash,
    ]);
  });
  for (const h of bytes.keys()) refs.delete(h);
  return { pageRows, fileRows, basePages, baseFiles, pageCount: seen.size, fileCount: fileIds.size, bytes, refs };
}

function buildTree(rows: PageRow[]): PageRecord[] {
  const byId = new Map<string, PageRecord>();
  const roots: PageRecord[] = [];
  for (const row of rows) {
    const page = pageFromRow(row);
    byId.set(page.id, page);
    // Rows are in pre-order: a parent always comes before its children, siblings in order.
    const parent = page.parentId === null ? undefined : byId.get(page.parentId);
    (parent ? parent.children : roots).push(page);
  }
  return roots;
}

/** Rows copied by one statement: four arrays of this length are its parameters. */
const COPY_CHUNK = 5000;

/**
 * Copies the base revision's rows of the `fromBase` pages and files into revision `id` (their place in the tree
 * from the input), inside the database. Every id must be found in the base: a missing one refuses the revision.
 */
async function copyFromBase(tx: Sql, id: string, base: string, prepared: Prepared): Promise<void> {
  const { basePages: p, baseFiles: f } = prepared;
  for (let start = 0; start < p.ids.length; start += COPY_CHUNK) {
    const end = start + COPY_CHUNK;
    const ids = p.ids.slice(start, end);
    const rows = await tx.query<{ n: number | string }>(
      `WITH copied AS (
         INSERT INTO revision_pages (revision_id, page_id, ord, parent_id, position, kind, title, slug, path, data, body_hash)
         SELECT $1, b.page_id, u.ord, NULLIF(u.parent_id, ''), u.position, b.kind, b.title, b.slug, b.path, b.data, b.body_hash
         FROM unnest($3::text[], $4::int[], $5::text[], $6::int[]) AS u(page_id, ord, parent_id, position)
         JOIN revision_pages b ON b.revision_id = $2 AND b.page_id = u.page_id
         RETURNING 1)
       SELECT count(*) AS n FROM copied`,
      [id, base, ids, p.ords.slice(start, end), p.parents.slice(start, end), p.positions.slice(start, end)],
    );
    if (Number(rows[0]?.n) !== ids.length) throw new ValidationError(`a fromBase page is not in the base revision ${base}`, { base });
  }
  for (let start = 0; start < f.ids.length; start += COPY_CHUNK) {
    const end = start + COPY_CHUNK;
    const ids = f.ids.slice(start, end);
    const rows = await tx.query<{ n: number | string }>(
      `WITH copied AS (
         INSERT INTO revision_files (revision_id, file_id, ord, name, path, content_type, size, git, data, hash)
         SELECT $1, b.file_id, u.ord, b.name, b.path, b.content_type, b.size, b.git, b.data, b.hash
         FROM unnest($3::text[], $4::int[]) AS u(file_id, ord)
         JOIN revision_files b ON b.revision_id = $2 AND b.file_id = u.file_id
         RETURNING 1)
       SELECT count(*) AS n FROM copied`,
      [id, base, ids, f.ords.slice(start, end)],
    );
    if (Number(rows[0]?.n) !== ids.length) throw new ValidationError(`a fromBase file is not in the base revision ${base}`, { base });
  }
}

async function requireRevision(sql: Sql, id: string): Promise<void> {
  const rows = await sql.query('SELECT 1 FROM revisions WHERE id = $1', [id]);
  if (rows.length === 0) throw new NotFoundError('revision', String(id));
}

/** The content of a page body or file: one joined query in the database blob store. */
async function readContent(
  sql: Sql,
  blobs: BlobBackend,
  table: string,
  idColumn: string,
  hashColumn: string,
  revisionId: string,
  id: string,
): Promise<Uint8Array | null> {
  if (blobs.kind === 'database') {
    const rows = await sql.query<{ bytes: unknown }>(
      `SELECT b.bytes FROM ${table} r JOIN blobs b ON b.hash = r.${hashColumn} WHERE r.revision_id = $1 AND r.${idColumn} = $2`,
      [revisionId, id],
    );
    return rows[0] && rows[0].bytes !== null ? toBytes(rows[0].bytes) : null;
  }
  const rows = await sql.query<{ hash: string | null }>(`SELECT ${hashColumn} AS hash FROM ${table} WHERE revision_id = $1 AND ${idColumn} = $2`, [
    revisionId,
    id,
  ]);
  const hash = rows[0]?.hash;
  return hash ? blobs.get(hash) : null;
}

/** The revision's own fields, checked. */
function checkRevisionHeader(input: RevisionInput): { spaceId: string; key: string | null; data: JsonObject; base: string | null } {
  if (!input || typeof input !== 'object') throw new ValidationError('revision input must be an object');
  const spaceId = checkId('space', input.spaceId);
  if (!Array.isArray(input.parents) || !input.parents.every((p) => typeof p === 'string'))
    throw new ValidationError('parents must be an array of revision ids');
  if (typeof input.type !== 'string' || !/^[a-z][a-z0-9-]{0,63}$/.test(input.type))
    throw new ValidationError('revision type must be a lowercase word such as edits or git-import');
  const key = optionalString(input.idempotencyKey, 'idempotencyKey', 500);
  if (input.git !== undefined && (typeof input.git !== 'object' || typeof input.git?.oid !== 'string'))
    throw new ValidationError('git must be an object with an oid');
  const data = jsonObject(input.data, 'revision data');
  const base = input.base === undefined || input.base === null ? null : checkId('revision', input.base);
  return { spaceId, key, data, base };
}

/** Every parent exists; the base is a revision of this space (a page is never copied from another space's revision). */
async function checkParentsAndBase(tx: Sql, spaceId: string, parents: string[], base: string | null): Promise<void> {
  if (parents.length > 0) {
    const found = await tx.query<{ id: string }>('SELECT id FROM revisions WHERE id = ANY($1::text[])', [parents]);
    const missing = parents.filter((p) => !found.some((f) => f.id === p));
    if (missing.length > 0) throw new ValidationError(`unknown parent revision: ${missing[0]}`, { parents: missing });
  }
  if (base !== null) {
    const found = await tx.query<{ space_id: string }>('SELECT space_id FROM revisions WHERE id = $1', [base]);
    if (found[0]?.space_id !== spaceId) throw new ValidationError(`unknown base revision: ${base}`, { base });
  }
}

/** Stores the new bytes and checks that every referenced blob exists, under the shared blob lock. */
async function storeAndCheckBlobs(tx: Sql, blobs: BlobBackend, prepared: Prepared, base: string | null): Promise<void> {
  // The blob lock, shared, until the commit: the collector (exclusive) cannot delete a blob between the check
  // below and this revision's rows naming it (they have no foreign key: migration 017). `storeWithin` takes it
  // when it stores bytes.
  if (prepared.bytes.size === 0 && (prepared.refs.size > 0 || base !== null)) await tx.query('SELECT pg_advisory_xact_lock_shared($1)', [BLOB_GC_LOCK_KEY]);
  await blobs.storeWithin(tx, prepared.bytes);
  if (prepared.refs.size > 0) {
    const found = await tx.query<{ hash: string }>('SELECT hash FROM blobs WHERE hash = ANY($1::text[])', [[...prepared.refs]]);
    const have = new Set(found.map((f) => f.hash));
    const missing = [...prepared.refs].filter((h) => !have.has(h));
    if (missing.length > 0) throw new ValidationError(`unknown blob: ${missing[0]}`, { blobs: missing.slice(0, 10) });
  }
}

/** The page and file rows of revision `id`, the given ones then those copied from the base. */
async function insertContentRows(tx: Sql, id: string, base: string | null, prepared: Prepared): Promise<void> {
  const pageRows = prepared.pageRows.map((r) => [id, ...r]);
  const fileRows = prepared.fileRows.map((r) => [id, ...r]);
  try {
    await insertRows(
      tx,
      'revision_pages',
      ['revision_id', 'page_id', 'ord', 'parent_id', 'position', 'kind', 'title', 'slug', 'path', 'data', 'body_hash'],
      pageRows,
      {
        casts: [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'jsonb'],
      },
    );
    await insertRows(tx, 'revision_files', ['revision_id', 'file_id', 'ord', 'name', 'path', 'content_type', 'size', 'git', 'data', 'hash'], fileRows, {
      casts: [undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'jsonb', 'jsonb'],
    });
    if (base !== null) await copyFromBase(tx, id, base, prepared);
  } catch (err) {
    if (sqlState(err) === '23503') throw new ValidationError('a page or file references an unknown blob');
    throw err;
  }
}

async function createRevision(sql: Sql, blobs: BlobBackend, input: RevisionInput): ReturnType<RevisionStore['create']> {
  const { spaceId, key, data, base } = checkRevisionHeader(input);
  const prepared = prepare(input);

  return sql.transaction(async (tx) => {
    const space = await tx.query<{ deleted_at: unknown }>('SELECT deleted_at FROM spaces WHERE id = $1 FOR SHARE', [spaceId]);
    if (!space[0]) throw new NotFoundError('space', spaceId);
    if (space[0].deleted_at !== null) throw new ConflictError('the space is deleted', { spaceId });
    const id = newId();
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO revisions (id, space_id, parents, type, git, data, idempotency_key, page_count, file_count)
       VALUES ($1, $2, $3::text[], $4, $5::jsonb, $6::jsonb, $7, $8, $9)
       ON CONFLICT (space_id, idempotency_key) DO NOTHING RETURNING id`,
      [id, spaceId, input.parents, input.type, json(input.git), json(data), key, prepared.pageCount, prepared.fileCount],
    );
    if (inserted.length === 0) {
      const existing = await tx.query<{ id: string }>('SELECT id FROM revisions WHERE space_id = $1 AND idempotency_key = $2', [spaceId, key]);
      return { id: existing[0]!.id, created: false };
    }
    await checkParentsAndBase(tx, spaceId, input.parents, base);
    await storeAndCheckBlobs(tx, blobs, prepared, base);
    await insertContentRows(tx, id, base, prepared);
    return { id, created: true };
  });
}

export function createRevisionStore(sql: Sql, blobs: BlobBackend): RevisionStore {
  return {
    create: (input) => createRevision(sql, blobs, input),

    async get(id) {
      if (typeof id !== 'string' || id === '') return null;
      const rows = await sql.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE id = $1`, [id]);
      return rows[0] ? revisionFromRow(rows[0]) : null;
    },

    async pages(revisionId) {
      const rows = await sql.query<PageRow>(`SELECT ${PAGE_COLUMNS} FROM revision_pages WHERE revision_id = $1 ORDER BY ord`, [revisionId]);
      if (rows.length === 0) await requireRevision(sql, revisionId);
      return buildTree(rows);
    },

    async page(revisionId, pageId) {
      const rows = await sql.query<PageRow>(`SELECT ${PAGE_COLUMNS} FROM revision_pages WHERE revision_id = $1 AND page_id = $2`, [revisionId, pageId]);
      return rows[0] ? pageFromRow(rows[0]) : null;
    },

    async pageBody(revisionId, pageId) {
      return readContent(sql, blobs, 'revision_pages', 'page_id', 'body_hash', revisionId, pageId);
    },

    async files(revisionId) {
      const rows = await sql.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM revision_files WHERE revision_id = $1 ORDER BY ord`, [revisionId]);
      if (rows.length === 0) await requireRevision(sql, revisionId);
      return rows.map(fileFromRow);
    },

    async file(revisionId, fileId) {
      const rows = await sql.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM revision_files WHERE revision_id = $1 AND file_id = $2`, [revisionId, fileId]);
      return rows[0] ? fileFromRow(rows[0]) : null;
    },

    async fileBytes(revisionId, fileId) {
      return readContent(sql, blobs, 'revision_files', 'file_id', 'hash', revisionId, fileId);
    },

    async listForSpace(spaceId, options) {
      const limit = checkLimit(options);
      const before = decodeCursor('revisions', options.page);
      const rows =
        before === null
          ? await sql.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE space_id = $1 ORDER BY seq DESC LIMIT $2`, [spaceId, limit + 1])
          : await sql.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE space_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`, [
              spaceId,
              before,
              limit + 1,
            ]);
      return paginate('revisions', rows, limit, revisionFromRow);
    },
  };
}
