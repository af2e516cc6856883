import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { BlobBackend } from './blobs.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { recordEvent } from './events.js';
import { checkId, newId } from './ids.js';
import { sqlState, toDate, toDateOrNull } from './sql-helpers.js';
import type { EditMode, Sql, SpaceCreateInput, SpacePatch, SpaceDefaultLevel, SpaceRecord, SpaceStore, SpaceVisibility } from './types/index.js';

interface SpaceRow {
  id: string;
  seq: string | number;
  organization_id: string;
  title: string | null;
  emoji: string | null;
  language: string | null;
  edit_mode: string | null;
  visibility: string | null;
  parent: string | null;
  revision_id: string | null;
  created_at: unknown;
  updated_at: unknown;
  deleted_at: unknown;
  deletion_id: string | null;
  default_level: string | null;
}

export const SPACE_COLUMNS =
  'id, seq, organization_id, title, emoji, language, edit_mode, visibility, parent, revision_id, created_at, updated_at, deleted_at, deletion_id, default_level';

export function spaceFromRow(row: SpaceRow): SpaceRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    title: row.title,
    emoji: row.emoji,
    language: row.language,
    editMode: row.edit_mode as EditMode | null,
    visibility: row.visibility as SpaceVisibility | null,
    parent: row.parent,
    revisionId: row.revision_id,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    deletedAt: toDateOrNull(row.deleted_at),
    deletionId: row.deletion_id,
    defaultLevel: row.default_level as SpaceDefaultLevel | null,
  };
}

const EDIT_MODES = new Set(['live', 'locked']);
const VISIBILITIES = new Set(['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private']);
const DEFAULT_LEVELS = new Set(['inherit', 'admin', 'create', 'edit', 'review', 'comment', 'read']);
const LIMITS: Record<string, number> = { title: 200, emoji: 64, language: 16, parent: 64 };

/** The column values of a create input or a patch, validated. Keys absent stay absent. */
function columnsOf(input: SpaceCreateInput | SpacePatch): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const key of ['title', 'emoji', 'language', 'parent'] as const) {
    const value = input[key];
    if (value === undefined) continue;
    if (value !== null && (typeof value !== 'string' || value.length > LIMITS[key]!))
      throw new ValidationError(`space ${key} must be a string of at most ${LIMITS[key]} characters`, { field: key });
    out[key] = value;
  }
  if (input.editMode !== undefined) {
    if (input.editMode !== null && !EDIT_MODES.has(input.editMode)) throw new ValidationError('space editMode must be live or locked', { field: 'editMode' });
    out.edit_mode = input.editMode;
  }
  if (input.visibility !== undefined) {
    if (input.visibility !== null && !VISIBILITIES.has(input.visibility))
      throw new ValidationError(`space visibility must be one of ${[...VISIBILITIES].join(', ')}`, { field: 'visibility' });
    out.visibility = input.visibility;
  }
  if ('defaultLevel' in input && input.defaultLevel !== undefined) {
    if (input.defaultLevel !== null && !DEFAULT_LEVELS.has(input.defaultLevel))
      throw new ValidationError(`space defaultLevel must be null or one of ${[...DEFAULT_LEVELS].join(', ')}`, { field: 'defaultLevel' });
    out.default_level = input.defaultLevel;
  }
  return out;
}

async function load(tx: Sql, id: string, lock = false): Promise<SpaceRow | null> {
  if (typeof id !== 'string' || id === '') return null;
  const rows = await tx.query<SpaceRow>(`SELECT ${SPACE_COLUMNS} FROM spaces WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] ?? null;
}

/** Spaces themselves: create, read, list, update. */
function createSpaceRecordStore(sql: Sql): Pick<SpaceStore, 'create' | 'get' | 'list' | 'update'> {
  return {
    async create(organizationId, input = {}) {
      const id = input.id === undefined ? newId() : checkId('space', input.id);
      const cols = columnsOf(input);
      const names = ['id', 'organization_id', ...Object.keys(cols)];
      const values = [id, organizationId, ...Object.values(cols)];
      try {
        const rows = await sql.query<SpaceRow>(
          `INSERT INTO spaces (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${SPACE_COLUMNS}`,
          values,
        );
        return spaceFromRow(rows[0]!);
      } catch (err) {
        if (sqlState(err) === '23505') throw new ConflictError(`space already exists: ${id}`, { id });
        if (sqlState(err) === '23503') throw new NotFoundError('organization', String(organizationId));
        throw err;
      }
    },

    async get(id, options = {}) {
      const row = await load(sql, id);
      if (!row || (row.deleted_at !== null && !options.includeDeleted)) return null;
      return spaceFromRow(row);
    },

    async list(organizationId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('spaces', options.page) ?? 0;
      const rows = await sql.query<SpaceRow>(
        `SELECT ${SPACE_COLUMNS} FROM spaces WHERE organization_id = $1 AND seq > $2 ${options.includeDeleted ? '' : 'AND deleted_at IS NULL'} ORDER BY seq LIMIT $3`,
        [organizationId, after, limit + 1],
      );
      const total = await countRows(sql, `spaces WHERE organization_id = $1 ${options.includeDeleted ? '' : 'AND deleted_at IS NULL'}`, [organizationId]);
      return { ...paginate('spaces', rows, limit, spaceFromRow), total };
    },

    async update(id, patch) {
      const cols = columnsOf(patch ?? {});
      const names = Object.keys(cols);
      const sets = [...names.map((n, i) => `${n} = $${i + 2}`), 'updated_at = now()'];
      const rows = await sql.query<SpaceRow>(`UPDATE spaces SET ${sets.join(', ')} WHERE id = $1 AND deleted_at IS NULL RETURNING ${SPACE_COLUMNS}`, [
        id,
        ...Object.values(cols),
      ]);
      if (!rows[0]) throw new NotFoundError('space', String(id));
      return spaceFromRow(rows[0]);
    },
  };
}

/** Deleting a space: marked deleted first, then restored or purged with its revisions and the blobs only it used. */
function createSpaceDeletionStore(sql: Sql, blobs: BlobBackend): Pick<SpaceStore, 'markDeleted' | 'restore' | 'purge'> {
  return {
    async markDeleted(id) {
      return sql.transaction(async (tx) => {
        const row = await load(tx, id, true);
        if (!row) throw new NotFoundError('space', String(id));
        if (row.deleted_at !== null) return { deletionId: row.deletion_id!, deletedAt: toDate(row.deleted_at) };
        const rows = await tx.query<SpaceRow>(
          `UPDATE spaces SET deleted_at = now(), deletion_id = $2, updated_at = now() WHERE id = $1 RETURNING ${SPACE_COLUMNS}`,
          [id, newId()],
        );
        return { deletionId: rows[0]!.deletion_id!, deletedAt: toDate(rows[0]!.deleted_at) };
      });
    },

    async restore(id, deletionId) {
      return sql.transaction(async (tx) => {
        const row = await load(tx, id, true);
        if (!row) throw new NotFoundError('space', String(id));
        if (row.deleted_at === null) return spaceFromRow(row);
        if (deletionId !== undefined && row.deletion_id !== deletionId)
          throw new ConflictError('the space was deleted by another deletion', { id, deletionId });
        const rows = await tx.query<SpaceRow>(
          `UPDATE spaces SET deleted_at = NULL, deletion_id = NULL, updated_at = now() WHERE id = $1 RETURNING ${SPACE_COLUMNS}`,
          [id],
        );
        return spaceFromRow(rows[0]!);
      });
    },

    async purge(id, deletionId) {
      return sql.transaction(async (tx) => {
        const row = await load(tx, id, true);
        if (!row) return { purged: false, revisions: 0, blobsDeleted: 0 };
        if (row.deleted_at === null) throw new ConflictError('the space is not deleted (it was restored)', { id, deletionId });
        if (row.deletion_id !== deletionId) throw new ConflictError('the space was deleted by another deletion', { id, deletionId });
        const candidates = await tx.query<{ hash: string }>(
          `SELECT DISTINCT p.body_hash AS hash FROM revision_pages p JOIN revisions r ON r.id = p.revision_id WHERE r.space_id = $1 AND p.body_hash IS NOT NULL
           UNION
           SELECT DISTINCT f.hash FROM revision_files f JOIN revisions r ON r.id = f.revision_id WHERE r.space_id = $1 AND f.hash IS NOT NULL`,
          [id],
        );
        await tx.query('DELETE FROM revision_pages WHERE revision_id IN (SELECT id FROM revisions WHERE space_id = $1)', [id]);
        await tx.query('DELETE FROM revision_files WHERE revision_id IN (SELECT id FROM revisions WHERE space_id = $1)', [id]);
        const revisions = await tx.query('DELETE FROM revisions WHERE space_id = $1 RETURNING id', [id]);
        await tx.query('DELETE FROM git_sync WHERE space_id = $1', [id]);
        await tx.query('DELETE FROM spaces WHERE id = $1', [id]);
        const removed = await blobs.deleteWithin(
          tx,
          candidates.map((c) => c.hash),
        );
        await blobs.removeContent(removed);
        return { purged: true, revisions: revisions.length, blobsDeleted: removed.length };
      });
    },
  };
}

/** The primary revision of a space, moved once per new revision with a `space_content_updated` event. */
function createSpaceRevisionStore(sql: Sql): Pick<SpaceStore, 'setPrimaryRevision'> {
  return {
    async setPrimaryRevision(id, revisionId, options = {}) {
      return sql.transaction(async (tx) => {
        const row = await load(tx, id, true);
        if (!row) throw new NotFoundError('space', String(id));
        if (row.deleted_at !== null) throw new ConflictError('the space is deleted', { id });
        const rev = await tx.query<{ space_id: string }>('SELECT space_id FROM revisions WHERE id = $1', [revisionId]);
        if (!rev[0]) throw new NotFoundError('revision', String(revisionId));
        if (rev[0].space_id !== id) throw new ValidationError('the revision belongs to another space', { id, revisionId });
        if (options.expected !== undefined && row.revision_id !== options.expected) {
          throw new ConflictError('the primary revision changed', { id, expected: options.expected, actual: row.revision_id });
        }
        // Already primary (a retried activity): nothing changed, so no second event.
        if (row.revision_id === revisionId) return spaceFromRow(row);
        const rows = await tx.query<SpaceRow>(`UPDATE spaces SET revision_id = $2, updated_at = now() WHERE id = $1 RETURNING ${SPACE_COLUMNS}`, [
          id,
          revisionId,
        ]);
        await recordEvent(tx, {
          organizationId: row.organization_id,
          type: 'space_content_updated',
          stream: id,
          spaceId: id,
          payload: { spaceId: id, revisionId, previousRevisionId: row.revision_id, updatedBy: [] },
        });
        return spaceFromRow(rows[0]!);
      });
    },
  };
}

export function createSpaceStore(sql: Sql, blobs: BlobBackend): SpaceStore {
  return { ...createSpaceRecordStore(sql), ...createSpaceDeletionStore(sql, blobs), ...createSpaceRevisionStore(sql) };
}
