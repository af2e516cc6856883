import { ConflictError, ValidationError } from '../errors.js';
import { checkLimit, decodeCursor, paginate } from './cursor.js';
import { checkId, newId } from './ids.js';
import { sqlState, toDate } from './sql-helpers.js';
import type { OrganizationRecord, OrgStore, Sql } from './types/index.js';

interface OrgRow {
  id: string;
  seq: string | number;
  title: string;
  created_at: unknown;
  updated_at: unknown;
}

const COLUMNS = 'id, seq, title, created_at, updated_at';

export function orgFromRow(row: OrgRow): OrganizationRecord {
  return { id: row.id, title: row.title, createdAt: toDate(row.created_at), updatedAt: toDate(row.updated_at) };
}

function checkTitle(title: unknown): string {
  if (typeof title !== 'string' || title.trim() === '' || title.length > 200)
    throw new ValidationError('organization title must be a non-empty string of at most 200 characters');
  return title;
}

export function createOrgStore(sql: Sql): OrgStore {
  async function get(id: string): Promise<OrganizationRecord | null> {
    if (typeof id !== 'string' || id === '') return null;
    const rows = await sql.query<OrgRow>(`SELECT ${COLUMNS} FROM organizations WHERE id = $1`, [id]);
    return rows[0] ? orgFromRow(rows[0]) : null;
  }
  return {
    async create(input) {
      const id = input.id === undefined ? newId() : checkId('organization', input.id);
      const title = checkTitle(input.title);
      try {
        const rows = await sql.query<OrgRow>(`INSERT INTO organizations (id, title) VALUES ($1, $2) RETURNING ${COLUMNS}`, [id, title]);
        return orgFromRow(rows[0]!);
      } catch (err) {
        if (sqlState(err) === '23505') throw new ConflictError(`organization already exists: ${id}`, { id });
        throw err;
      }
    },
    async ensure(input) {
      const id = checkId('organization', input.id);
      const title = checkTitle(input.title);
      await sql.query('INSERT INTO organizations (id, title) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [id, title]);
      return (await get(id))!;
    },
    get,
    async list(options) {
      const limit = checkLimit(options);
      const after = decodeCursor('orgs', options.page) ?? 0;
      const rows = await sql.query<OrgRow>(`SELECT ${COLUMNS} FROM organizations WHERE seq > $1 ORDER BY seq LIMIT $2`, [after, limit + 1]);
      return paginate('orgs', rows, limit, orgFromRow);
    },
  };
}
