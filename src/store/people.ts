import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { recordAudit } from './audit.js';
import { checkLimit, countRows, decodeCursor, encodeCursor } from './cursor.js';
import { checkId, newId } from './ids.js';
import { sqlState, toDate, toDateOrNull } from './sql-helpers.js';
import type { AuditActor, MemberRecord, MemberRole, MemberStore, Sql, SqlParam, UserRecord, UserStore } from './types/index.js';

const ROLES: readonly string[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

/** A member role or null (guest); anything else is a ValidationError. */
export function checkRole(role: unknown, what = 'role'): MemberRole | null {
  if (role === null) return null;
  if (typeof role !== 'string' || !ROLES.includes(role)) throw new ValidationError(`${what} must be one of ${ROLES.join(', ')} or null`);
  return role as MemberRole;
}

interface UserRow {
  id: string;
  display_name: string;
  email: string | null;
  photo_url: string | null;
  created_at: unknown;
  updated_at: unknown;
}

const USER_COLUMNS = 'u.id, u.display_name, u.email, u.photo_url, u.created_at, u.updated_at';

export function userFromRow(row: UserRow): UserRecord {
  return {
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    photoUrl: row.photo_url,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

function checkDisplayName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '' || name.length > 64) throw new ValidationError('a display name is 1 to 64 characters');
  return name;
}

function checkEmail(email: unknown): string | null {
  if (email === null || email === undefined) return null;
  if (typeof email !== 'string' || email.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new ValidationError('not an e-mail address');
  return email.trim();
}

function checkPhoto(url: unknown): string | null {
  if (url === null || url === undefined) return null;
  if (typeof url !== 'string' || url.length > 2048 || !/^https?:\/\//i.test(url))
    throw new ValidationError('a photo URL is an http(s) URL of at most 2048 characters');
  return url;
}

export function createUserStore(sql: Sql): UserStore {
  const get = async (id: string) => {
    const rows = await sql.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [id]);
    return rows[0] ? userFromRow(rows[0]) : null;
  };
  return {
    async create(input) {
      const id = input.id === undefined ? newId() : checkId('user', input.id);
      try {
        const rows = await sql.query<UserRow>(`INSERT INTO users AS u (id, display_name, email, photo_url) VALUES ($1, $2, $3, $4) RETURNING ${USER_COLUMNS}`, [
          id,
          checkDisplayName(input.displayName),
          checkEmail(input.email),
          checkPhoto(input.photoUrl),
        ]);
        return userFromRow(rows[0]!);
      } catch (err) {
        if (sqlState(err) === '23505') throw new ConflictError('a user with this id or e-mail exists already');
        throw err;
      }
    },
    get,
    async getMany(ids) {
      const out = new Map<string, UserRecord>();
      if (ids.length === 0) return out;
      const rows = await sql.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ANY($1::text[])`, [[...new Set(ids)]]);
      for (const row of rows) out.set(row.id, userFromRow(row));
      return out;
    },
    async byEmail(email) {
      const rows = await sql.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE lower(u.email) = lower($1)`, [email.trim()]);
      return rows[0] ? userFromRow(rows[0]) : null;
    },
    async update(id, patch) {
      const sets: string[] = [];
      const params: SqlParam[] = [id];
      const set = (column: string, value: SqlParam) => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      if (patch.displayName !== undefined) set('display_name', checkDisplayName(patch.displayName));
      if (patch.photoUrl !== undefined) set('photo_url', checkPhoto(patch.photoUrl));
      if (patch.email !== undefined) set('email', checkEmail(patch.email));
      if (sets.length === 0) {
        const user = await get(id);
        if (!user) throw new NotFoundError('user', id);
        return user;
      }
      try {
        const rows = await sql.query<UserRow>(`UPDATE users u SET ${sets.join(', ')}, updated_at = now() WHERE u.id = $1 RETURNING ${USER_COLUMNS}`, params);
        if (!rows[0]) throw new NotFoundError('user', id);
        return userFromRow(rows[0]);
      } catch (err) {
        if (sqlState(err) === '23505') throw new ConflictError('a user with this e-mail exists already');
        throw err;
      }
    },
    async shareOrganization(a, b) {
      const rows = await sql.query(
        `SELECT 1 FROM organization_members x JOIN organization_members y ON y.organization_id = x.organization_id WHERE x.user_id = $1 AND y.user_id = $2 LIMIT 1`,
        [a, b],
      );
      return rows.length > 0;
    },
  };
}

interface MemberRow extends UserRow {
  organization_id: string;
  user_id: string;
  role: string | null;
  sso: boolean;
  disabled: boolean;
  joined_at: unknown;
  last_seen_at: unknown;
}

const MEMBER_SELECT = `SELECT m.organization_id, m.user_id, m.role, m.sso, m.disabled, m.joined_at, m.last_seen_at, ${USER_COLUMNS}
  FROM organization_members m JOIN users u ON u.id = m.user_id`;

function memberFromRow(row: MemberRow): MemberRecord {
  return {
    organizationId: row.organization_id,
    userId: row.user_id,
    role: row.role as MemberRole | null,
    sso: row.sso,
    disabled: row.disabled,
    joinedAt: toDate(row.joined_at),
    lastSeenAt: toDateOrNull(row.last_seen_at),
    user: userFromRow(row),
  };
}

const SORTS = { joinedAt: 'm.joined_at', lastSeenAt: 'm.last_seen_at', name: 'lower(u.display_name)' } as const;

async function getMember(sql: Sql, organizationId: string, userId: string): Promise<MemberRecord | null> {
  const rows = await sql.query<MemberRow>(`${MEMBER_SELECT} WHERE m.organization_id = $1 AND m.user_id = $2`, [organizationId, userId]);
  return rows[0] ? memberFromRow(rows[0]) : null;
}

async function listMembers(sql: Sql, organizationId: string, options: Parameters<MemberStore['list']>[1]) {
  const limit = checkLimit(options);
  const offset = decodeCursor('members', options.page) ?? 0;
  const params: SqlParam[] = [organizationId];
  let where = 'm.organization_id = $1';
  if (options.role === 'guest') where += ' AND m.role IS NULL';
  else if (options.role !== undefined) {
    params.push(checkRole(options.role)!);
    where += ` AND m.role = $${params.length}`;
  }
  if (options.search) {
    params.push(`%${options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ` AND (lower(u.display_name) LIKE $${params.length} OR lower(coalesce(u.email, '')) LIKE $${params.length})`;
  }
  const order = options.order === 'asc' ? 'ASC' : 'DESC';
  const sort = SORTS[options.sort ?? 'joinedAt'] ?? SORTS.joinedAt;
  const total = await countRows(sql, `organization_members m JOIN users u ON u.id = m.user_id WHERE ${where}`, params);
  const rows = await sql.query<MemberRow>(
    `${MEMBER_SELECT} WHERE ${where} ORDER BY ${sort} ${order} NULLS LAST, m.seq ${order} LIMIT ${limit + 1} OFFSET ${offset}`,
    params,
  );
  const more = rows.length > limit;
  const items = rows.slice(0, limit).map(memberFromRow);
  return { items, total, ...(more ? { next: { page: encodeCursor('members', offset + limit) } } : {}) };
}

/** Removes a member in one transaction: their personal tokens for the organization revoked, their teams and grants there dropped. */
async function removeMember(sql: Sql, organizationId: string, userId: string, actor: AuditActor): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const gone = await tx.query<{ role: string | null }>('DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2 RETURNING role', [
      organizationId,
      userId,
    ]);
    if (!gone[0]) return false;
    const revoked = await tx.query('UPDATE api_tokens SET revoked_at = now() WHERE organization_id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id', [
      organizationId,
      userId,
    ]);
    await tx.query('DELETE FROM team_members WHERE user_id = $2 AND team_id IN (SELECT id FROM teams WHERE organization_id = $1)', [organizationId, userId]);
    const grants = await tx.query('DELETE FROM content_permissions WHERE organization_id = $1 AND user_id = $2 RETURNING seq', [organizationId, userId]);
    await recordAudit(
      tx,
      organizationId,
      actor,
      'member.remove',
      { user: userId },
      { before: { role: gone[0].role }, after: { tokensRevoked: revoked.length, grantsRemoved: grants.length } },
    );
    return true;
  });
}

export function createMemberStore(sql: Sql): MemberStore {
  return {
    list: (organizationId, options) => listMembers(sql, organizationId, options),
    get: (organizationId, userId) => getMember(sql, organizationId, userId),
    async ofUser(userId) {
      const rows = await sql.query<MemberRow>(`${MEMBER_SELECT} WHERE m.user_id = $1 ORDER BY m.seq`, [userId]);
      return rows.map(memberFromRow);
    },
    async add(organizationId, userId, input, actor) {
      const role = checkRole(input.role);
      return sql.transaction(async (tx) => {
        const [org, user] = await Promise.all([
          tx.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]),
          tx.query('SELECT 1 FROM users WHERE id = $1', [userId]),
        ]);
        if (org.length === 0) throw new NotFoundError('organization', organizationId);
        if (user.length === 0) throw new NotFoundError('user', userId);
        const inserted = await tx.query(
          'INSERT INTO organization_members (organization_id, user_id, role, sso) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING user_id',
          [organizationId, userId, role, input.sso ?? false],
        );
        const added = inserted.length > 0;
        if (added) await recordAudit(tx, organizationId, actor, 'member.add', { user: userId }, { after: { role, sso: input.sso ?? false } });
        return { member: (await getMember(tx, organizationId, userId))!, added };
      });
    },
    async setRole(organizationId, userId, role, actor) {
      const next = checkRole(role);
      return sql.transaction(async (tx) => {
        const before = await tx.query<{ role: string | null }>('SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2 FOR UPDATE', [
          organizationId,
          userId,
        ]);
        if (!before[0]) throw new NotFoundError('member', userId);
        if (before[0].role !== next) {
          await tx.query('UPDATE organization_members SET role = $3 WHERE organization_id = $1 AND user_id = $2', [organizationId, userId, next]);
          await recordAudit(tx, organizationId, actor, 'member.role', { user: userId }, { before: { role: before[0].role }, after: { role: next } });
        }
        return (await getMember(tx, organizationId, userId))!;
      });
    },
    async setSso(organizationId, userId, sso, actor) {
      return sql.transaction(async (tx) => {
        const rows = await tx.query<{ sso: boolean }>('SELECT sso FROM organization_members WHERE organization_id = $1 AND user_id = $2 FOR UPDATE', [
          organizationId,
          userId,
        ]);
        if (!rows[0]) throw new NotFoundError('member', userId);
        if (rows[0].sso !== sso) {
          await tx.query('UPDATE organization_members SET sso = $3 WHERE organization_id = $1 AND user_id = $2', [organizationId, userId, sso]);
          await recordAudit(tx, organizationId, actor, 'member.sso', { user: userId }, { before: { sso: rows[0].sso }, after: { sso } });
        }
        return (await getMember(tx, organizationId, userId))!;
      });
    },
    remove: (organizationId, userId, actor) => removeMember(sql, organizationId, userId, actor),
    async touch(organizationId, userId) {
      await sql.query(
        `UPDATE organization_members SET last_seen_at = now() WHERE organization_id = $1 AND user_id = $2 AND (last_seen_at IS NULL OR last_seen_at < now() - interval '1 minute')`,
        [organizationId, userId],
      );
    },
    async countWithRole(organizationId, role) {
      const rows = await sql.query<{ n: string | number }>('SELECT count(*) AS n FROM organization_members WHERE organization_id = $1 AND role = $2', [
        organizationId,
        role,
      ]);
      return Number(rows[0]?.n ?? 0);
    },
  };
}
