import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { newId } from './ids.js';
import { toDate } from './sql-helpers.js';
import { SPACE_COLUMNS, spaceFromRow } from './spaces.js';
import type { CollectionPatch, CollectionRecord, CollectionStore, SpaceDefaultLevel, Sql, SqlParam } from './types/index.js';

/** Collections nest at most this deep (the permission cascade, src/people/access.ts, reads 16 levels above a space). */
export const MAX_COLLECTION_DEPTH = 10;
export const COLLECTION_TITLE_MAX = 50;
export const COLLECTION_DESCRIPTION_MAX = 100;

interface CollectionRow {
  id: string;
  seq: string | number;
  organization_id: string;
  title: string;
  description: string | null;
  parent: string | null;
  default_level: string | null;
  created_by: string | null;
  created_at: unknown;
  updated_at: unknown;
}

const COLUMNS = 'id, seq, organization_id, title, description, parent, default_level, created_by, created_at, updated_at';
const DEFAULT_LEVELS = new Set(['inherit', 'admin', 'create', 'edit', 'review', 'comment', 'read']);

function fromRow(row: CollectionRow): CollectionRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    title: row.title,
    description: row.description,
    parent: row.parent,
    defaultLevel: row.default_level as SpaceDefaultLevel | null,
    createdBy: row.created_by,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

function checkText(field: 'title' | 'description', value: unknown, max: number): string {
  if (typeof value !== 'string' || [...value].length > max) throw new ValidationError(`a collection ${field} is at most ${max} characters`, { field });
  return value;
}

async function load(tx: Sql, id: string, lock = ''): Promise<CollectionRecord | null> {
  if (typeof id !== 'string' || id === '') return null;
  const rows = await tx.query<CollectionRow>(`SELECT ${COLUMNS} FROM collections WHERE id = $1 ${lock}`, [id]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** The parent collection for new or moved content of the organization (locked against its deletion until commit). */
async function parentOf(tx: Sql, organizationId: string, parent: string): Promise<CollectionRecord> {
  const found = await load(tx, parent, 'FOR SHARE');
  if (!found || found.organizationId !== organizationId) throw new NotFoundError('collection', parent);
  return found;
}

/** How many collections deep `id` sits (a top-level collection is 1). */
async function depthOf(tx: Sql, id: string): Promise<number> {
  const rows = await tx.query<{ n: string | number }>(
    `WITH RECURSIVE up(id, parent, n) AS (
       SELECT id, parent, 1 FROM collections WHERE id = $1
       UNION ALL SELECT c.id, c.parent, up.n + 1 FROM collections c JOIN up ON c.id = up.parent WHERE up.n < 100)
     SELECT max(n) AS n FROM up`,
    [id],
  );
  return Number(rows[0]?.n ?? 0);
}

/** The collection's descendants (itself included) with their depth below it (itself 0). */
async function subtreeOf(tx: Sql, id: string): Promise<Array<{ id: string; n: number }>> {
  const rows = await tx.query<{ id: string; n: string | number }>(
    `WITH RECURSIVE down(id, n) AS (
       SELECT id, 0 FROM collections WHERE id = $1
       UNION ALL SELECT c.id, down.n + 1 FROM collections c JOIN down ON c.parent = down.id WHERE down.n < 100)
     SELECT id, n FROM down`,
    [id],
  );
  return rows.map((r) => ({ id: r.id, n: Number(r.n) }));
}

async function moveCollection(sql: Sql, id: string, parent: string | null): Promise<CollectionRecord> {
  return sql.transaction(async (tx) => {
    const current = await load(tx, id);
    if (!current) throw new NotFoundError('collection', id);
    // One move at a time per organization: two crossing moves (A into B, B into A) cannot both pass the cycle check.
    await tx.query('SELECT id FROM collections WHERE organization_id = $1 ORDER BY id FOR UPDATE', [current.organizationId]);
    if (parent !== null) {
      await parentOf(tx, current.organizationId, parent);
      const subtree = await subtreeOf(tx, id);
      if (subtree.some((c) => c.id === parent))
        throw new ConflictError(`collection ${id} cannot move into ${parent === id ? 'itself' : `collection ${parent}, which is inside it`}`, {
          reason: 'cycle',
          parent,
        });
      const height = Math.max(...subtree.map((c) => c.n));
      if ((await depthOf(tx, parent)) + 1 + height > MAX_COLLECTION_DEPTH)
        throw new ValidationError(`collections nest at most ${MAX_COLLECTION_DEPTH} deep`, { field: 'parent' });
    }
    const rows = await tx.query<CollectionRow>(`UPDATE collections SET parent = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [id, parent]);
    return fromRow(rows[0]!);
  });
}

async function deleteCollection(sql: Sql, id: string): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const current = await load(tx, id, 'FOR UPDATE');
    if (!current) return false;
    const counts = await tx.query<{ spaces: string | number; collections: string | number }>(
      `SELECT (SELECT count(*) FROM spaces WHERE parent = $1 AND deleted_at IS NULL) AS spaces,
              (SELECT count(*) FROM collections WHERE parent = $1) AS collections`,
      [id],
    );
    const spaces = Number(counts[0]?.spaces ?? 0);
    const collections = Number(counts[0]?.collections ?? 0);
    if (spaces + collections > 0)
      throw new ConflictError(`collection ${id} is not empty: it holds ${spaces} space(s) and ${collections} collection(s); move or delete them first`, {
        reason: 'not-empty',
        spaces,
        collections,
      });
    await tx.query('UPDATE spaces SET parent = NULL WHERE parent = $1 AND deleted_at IS NOT NULL', [id]);
    await tx.query('DELETE FROM collections WHERE id = $1', [id]);
    return true;
  });
}

async function listCollections(sql: Sql, organizationId: string, options: Parameters<CollectionStore['list']>[1]) {
  const limit = checkLimit(options);
  const after = decodeCursor('collections', options.page) ?? 0;
  const where = `organization_id = $1${options.topLevel ? ' AND parent IS NULL' : ''}`;
  const total = await countRows(sql, `collections WHERE ${where}`, [organizationId]);
  const rows = await sql.query<CollectionRow>(`SELECT ${COLUMNS} FROM collections WHERE ${where} AND seq > $2 ORDER BY seq LIMIT $3`, [
    organizationId,
    after,
    limit + 1,
  ]);
  return { ...paginate('collections', rows, limit, fromRow), total };
}

/** The SET clauses of a patch (`$1` is the id) and their values, validated. */
function patchColumns(patch: CollectionPatch): { sets: string[]; params: SqlParam[] } {
  const sets: string[] = [];
  const params: SqlParam[] = [];
  const set = (column: string, value: SqlParam) => {
    params.push(value);
    sets.push(`${column} = $${params.length + 1}`);
  };
  if (patch.title !== undefined) set('title', checkText('title', patch.title, COLLECTION_TITLE_MAX));
  if (patch.description !== undefined)
    set('description', patch.description === null ? null : checkText('description', patch.description, COLLECTION_DESCRIPTION_MAX));
  if (patch.defaultLevel !== undefined) {
    if (patch.defaultLevel !== null && !DEFAULT_LEVELS.has(patch.defaultLevel))
      throw new ValidationError(`defaultLevel must be null or one of ${[...DEFAULT_LEVELS].join(', ')}`, { field: 'defaultLevel' });
    set('default_level', patch.defaultLevel);
  }
  return { sets, params };
}

export function createCollectionStore(sql: Sql): CollectionStore {
  return {
    async create(organizationId, input) {
      const title = checkText('title', input.title ?? '', COLLECTION_TITLE_MAX);
      const description = input.description === undefined ? null : checkText('description', input.description, COLLECTION_DESCRIPTION_MAX);
      return sql.transaction(async (tx) => {
        const org = await tx.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
        if (org.length === 0) throw new NotFoundError('organization', organizationId);
        const parent = input.parent ?? null;
        if (parent !== null) {
          await parentOf(tx, organizationId, parent);
          if ((await depthOf(tx, parent)) + 1 > MAX_COLLECTION_DEPTH)
            throw new ValidationError(`collections nest at most ${MAX_COLLECTION_DEPTH} deep`, { field: 'parent' });
        }
        const rows = await tx.query<CollectionRow>(
          `INSERT INTO collections (id, organization_id, title, description, parent, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
          [newId(), organizationId, title, description, parent, input.createdBy ?? null],
        );
        return fromRow(rows[0]!);
      });
    },
    get: (id) => load(sql, id),
    list: (organizationId, options) => listCollections(sql, organizationId, options),
    async all(organizationId) {
      const rows = await sql.query<CollectionRow>(`SELECT ${COLUMNS} FROM collections WHERE organization_id = $1 ORDER BY seq`, [organizationId]);
      return rows.map(fromRow);
    },
    async update(id, patch) {
      const { sets, params } = patchColumns(patch);
      if (sets.length === 0) {
        const current = await load(sql, id);
        if (!current) throw new NotFoundError('collection', id);
        return current;
      }
      const rows = await sql.query<CollectionRow>(`UPDATE collections SET ${sets.join(', ')}, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [
        id,
        ...params,
      ]);
      if (!rows[0]) throw new NotFoundError('collection', id);
      return fromRow(rows[0]);
    },
    move: (id, parent) => moveCollection(sql, id, parent),
    async moveSpace(organizationId, spaceId, parent) {
      return sql.transaction(async (tx) => {
        if (parent !== null) await parentOf(tx, organizationId, parent);
        const rows = await tx.query<Parameters<typeof spaceFromRow>[0]>(
          `UPDATE spaces SET parent = $3, updated_at = now() WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL RETURNING ${SPACE_COLUMNS}`,
          [spaceId, organizationId, parent],
        );
        if (!rows[0]) throw new NotFoundError('space', spaceId);
        return spaceFromRow(rows[0]);
      });
    },
    delete: (id) => deleteCollection(sql, id),
    async spaces(id, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('collection-spaces', options.page) ?? 0;
      const where = 'parent = $1 AND deleted_at IS NULL';
      const total = await countRows(sql, `spaces WHERE ${where}`, [id]);
      const rows = await sql.query<Parameters<typeof spaceFromRow>[0]>(
        `SELECT ${SPACE_COLUMNS} FROM spaces WHERE ${where} AND seq > $2 ORDER BY seq LIMIT $3`,
        [id, after, limit + 1],
      );
      return { ...paginate('collection-spaces', rows, limit, spaceFromRow), total };
    },
  };
}
