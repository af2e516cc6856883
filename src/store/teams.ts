import { NotFoundError, ValidationError } from '../errors.js';
import { recordAudit } from './audit.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { newId } from './ids.js';
import { toDate } from './sql-helpers.js';
import type { Json, Sql, SqlParam, TeamMemberRecord, TeamMemberRole, TeamRecord, TeamStore } from './types/index.js';

interface TeamRow {
  id: string;
  seq: string | number;
  organization_id: string;
  title: string;
  created_at: unknown;
  members: string | number;
  spaces: string | number;
}

const TEAM_COLUMNS = `t.id, t.seq, t.organization_id, t.title, t.created_at,
  (SELECT count(*) FROM team_members tm WHERE tm.team_id = t.id) AS members,
  (SELECT count(*) FROM content_permissions p WHERE p.team_id = t.id AND p.space_id IS NOT NULL) AS spaces`;

function teamFromRow(row: TeamRow): TeamRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    title: row.title,
    createdAt: toDate(row.created_at),
    members: Number(row.members),
    spaces: Number(row.spaces),
  };
}

export function checkTeamTitle(title: unknown): string {
  if (typeof title !== 'string' || title.length < 1 || title.length > 64 || title.trim() === '')
    throw new ValidationError('a team title is 1 to 64 characters');
  return title;
}

async function getTeam(sql: Sql, organizationId: string, teamId: string): Promise<TeamRecord | null> {
  const rows = await sql.query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.organization_id = $1 AND t.id = $2`, [organizationId, teamId]);
  return rows[0] ? teamFromRow(rows[0]) : null;
}

/** Throws a ValidationError naming the users of `userIds` that are not members of the organization. */
async function assertMembers(tx: Sql, organizationId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  const rows = await tx.query<{ user_id: string }>('SELECT user_id FROM organization_members WHERE organization_id = $1 AND user_id = ANY($2::text[])', [
    organizationId,
    [...new Set(userIds)],
  ]);
  const found = new Set(rows.map((r) => r.user_id));
  const missing = userIds.filter((id) => !found.has(id));
  if (missing.length > 0) throw new ValidationError(`not members of the organization: ${missing.slice(0, 10).join(', ')}`, { missing });
}

async function changeMembers(tx: Sql, organizationId: string, teamId: string, change: Parameters<TeamStore['updateMembers']>[2]) {
  const team = await tx.query('SELECT 1 FROM teams WHERE organization_id = $1 AND id = $2 FOR UPDATE', [organizationId, teamId]);
  if (team.length === 0) throw new NotFoundError('team', teamId);
  const add = change.add ?? [];
  await assertMembers(
    tx,
    organizationId,
    add.map((a) => a.userId),
  );
  let added = 0;
  for (const { userId, role } of add) {
    const teamRole: TeamMemberRole = role === 'owner' ? 'owner' : 'member';
    const rows = await tx.query(
      `INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (team_id, user_id) DO UPDATE SET role = EXCLUDED.role WHERE team_members.role <> EXCLUDED.role RETURNING user_id`,
      [teamId, userId, teamRole],
    );
    added += rows.length;
  }
  const remove = [...new Set(change.remove ?? [])];
  const removed = remove.length
    ? (await tx.query('DELETE FROM team_members WHERE team_id = $1 AND user_id = ANY($2::text[]) RETURNING user_id', [teamId, remove])).length
    : 0;
  return { added, removed };
}

async function listTeams(sql: Sql, organizationId: string, options: Parameters<TeamStore['list']>[1]) {
  const limit = checkLimit(options);
  const after = decodeCursor('teams', options.page) ?? 0;
  const params: SqlParam[] = [organizationId];
  let where = 't.organization_id = $1';
  if (options.title) {
    params.push(`%${options.title.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ` AND lower(t.title) LIKE $${params.length}`;
  }
  if (options.owner) {
    params.push(options.owner);
    where += ` AND EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.user_id = $${params.length} AND o.role = 'owner')`;
  }
  const total = await countRows(sql, `teams t WHERE ${where}`, params);
  const rows = await sql.query<TeamRow>(
    `SELECT ${TEAM_COLUMNS} FROM teams t WHERE ${where} AND t.seq > ${Number(after)} ORDER BY t.seq LIMIT ${limit + 1}`,
    params,
  );
  return { ...paginate('teams', rows, limit, teamFromRow), total };
}

export function createTeamStore(sql: Sql): TeamStore {
  return {
    async create(organizationId, input, actor) {
      const title = checkTeamTitle(input.title);
      return sql.transaction(async (tx) => {
        const org = await tx.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
        if (org.length === 0) throw new NotFoundError('organization', organizationId);
        const members = [...new Set(input.members ?? [])];
        await assertMembers(tx, organizationId, members);
        const id = newId();
        await tx.query('INSERT INTO teams (id, organization_id, title) VALUES ($1, $2, $3)', [id, organizationId, title]);
        for (const userId of members) await tx.query('INSERT INTO team_members (team_id, user_id) VALUES ($1, $2)', [id, userId]);
        await recordAudit(tx, organizationId, actor, 'team.create', { team: id }, { after: { title, members } });
        return (await getTeam(tx, organizationId, id))!;
      });
    },
    get: (organizationId, teamId) => getTeam(sql, organizationId, teamId),
    list: (organizationId, options) => listTeams(sql, organizationId, options),
    async rename(organizationId, teamId, title, actor) {
      const next = checkTeamTitle(title);
      return sql.transaction(async (tx) => {
        const before = await tx.query<{ title: string }>('SELECT title FROM teams WHERE organization_id = $1 AND id = $2 FOR UPDATE', [organizationId, teamId]);
        if (!before[0]) throw new NotFoundError('team', teamId);
        if (before[0].title !== next) {
          await tx.query('UPDATE teams SET title = $3 WHERE organization_id = $1 AND id = $2', [organizationId, teamId, next]);
          await recordAudit(tx, organizationId, actor, 'team.rename', { team: teamId }, { before: { title: before[0].title }, after: { title: next } });
        }
        return (await getTeam(tx, organizationId, teamId))!;
      });
    },
    async delete(organizationId, teamId, actor) {
      return sql.transaction(async (tx) => {
        const gone = await tx.query<{ title: string }>('DELETE FROM teams WHERE organization_id = $1 AND id = $2 RETURNING title', [organizationId, teamId]);
        if (!gone[0]) return false;
        await recordAudit(tx, organizationId, actor, 'team.delete', { team: teamId }, { before: { title: gone[0].title } });
        return true;
      });
    },
    async members(teamId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('team-members', options.page) ?? 0;
      const total = await countRows(sql, 'team_members WHERE team_id = $1', [teamId]);
      const rows = await sql.query<{ seq: string | number; team_id: string; user_id: string; role: string; added_at: unknown }>(
        'SELECT seq, team_id, user_id, role, added_at FROM team_members WHERE team_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [teamId, after, limit + 1],
      );
      const map = (r: (typeof rows)[number]): TeamMemberRecord => ({
        teamId: r.team_id,
        userId: r.user_id,
        role: r.role as TeamMemberRole,
        addedAt: toDate(r.added_at),
      });
      return { ...paginate('team-members', rows, limit, map), total };
    },
    async updateMembers(organizationId, teamId, change, actor) {
      return sql.transaction(async (tx) => {
        const result = await changeMembers(tx, organizationId, teamId, change);
        if (result.added + result.removed > 0) {
          const after: Json = { add: (change.add ?? []).map((a) => ({ user: a.userId, role: a.role ?? 'member' })), remove: [...(change.remove ?? [])] };
          await recordAudit(tx, organizationId, actor, 'team.members', { team: teamId }, { after });
        }
        return result;
      });
    },
    async ofUser(organizationId, userId) {
      const rows = await sql.query<TeamRow & { member_role: string }>(
        `SELECT ${TEAM_COLUMNS}, me.role AS member_role FROM teams t JOIN team_members me ON me.team_id = t.id
          WHERE t.organization_id = $1 AND me.user_id = $2 ORDER BY t.seq`,
        [organizationId, userId],
      );
      return rows.map((r) => ({ team: teamFromRow(r), role: r.member_role as TeamMemberRole }));
    },
  };
}
