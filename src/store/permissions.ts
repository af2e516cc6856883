import { NotFoundError } from '../errors.js';
import { recordAudit } from './audit.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { checkRole } from './people.js';
import { toDate } from './sql-helpers.js';
import type { AuditActor, ContentGrant, ContentRef, MemberRole, PermissionStore, PrincipalRef, Sql, SqlParam } from './types/index.js';

interface GrantRow {
  seq: string | number;
  organization_id: string;
  space_id: string | null;
  collection_id: string | null;
  user_id: string | null;
  team_id: string | null;
  role: string;
  created_at: unknown;
  updated_at: unknown;
}

function grantFromRow(row: GrantRow): ContentGrant {
  return {
    organizationId: row.organization_id,
    content: row.space_id !== null ? { kind: 'space', id: row.space_id } : { kind: 'collection', id: row.collection_id! },
    principal: row.user_id !== null ? { kind: 'user', id: row.user_id } : { kind: 'team', id: row.team_id! },
    role: row.role as MemberRole,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

const contentColumn = (content: ContentRef) => (content.kind === 'space' ? 'space_id' : 'collection_id');
const principalColumn = (principal: PrincipalRef) => (principal.kind === 'user' ? 'user_id' : 'team_id');

/** NotFoundError unless the content is the organization's (a live space, or a collection, locked until the grant is written). */
async function assertContent(tx: Sql, organizationId: string, content: ContentRef): Promise<void> {
  const rows =
    content.kind === 'space'
      ? await tx.query('SELECT 1 FROM spaces WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL', [content.id, organizationId])
      : await tx.query('SELECT 1 FROM collections WHERE id = $1 AND organization_id = $2 FOR SHARE', [content.id, organizationId]);
  if (rows.length === 0) throw new NotFoundError(content.kind, content.id);
}

/** NotFoundError unless the principal is of the organization: a user a member, a team one of its teams. */
async function assertPrincipal(tx: Sql, organizationId: string, principal: PrincipalRef): Promise<void> {
  const rows =
    principal.kind === 'user'
      ? await tx.query('SELECT 1 FROM organization_members WHERE organization_id = $1 AND user_id = $2', [organizationId, principal.id])
      : await tx.query('SELECT 1 FROM teams WHERE organization_id = $1 AND id = $2', [organizationId, principal.id]);
  if (rows.length === 0) throw new NotFoundError(principal.kind, principal.id);
}

async function setOne(
  tx: Sql,
  organizationId: string,
  content: ContentRef,
  principal: PrincipalRef,
  role: MemberRole | null,
): Promise<{ before: string | null }> {
  const where = `${contentColumn(content)} = $1 AND ${principalColumn(principal)} = $2`;
  const before = await tx.query<{ role: string }>(`SELECT role FROM content_permissions WHERE ${where} FOR UPDATE`, [content.id, principal.id]);
  const previous = before[0]?.role ?? null;
  if (previous === role) return { before: previous };
  if (role === null) await tx.query(`DELETE FROM content_permissions WHERE ${where}`, [content.id, principal.id]);
  else if (previous !== null) await tx.query(`UPDATE content_permissions SET role = $3, updated_at = now() WHERE ${where}`, [content.id, principal.id, role]);
  else
    await tx.query(
      `INSERT INTO content_permissions (organization_id, ${contentColumn(content)}, ${principalColumn(principal)}, role) VALUES ($1, $2, $3, $4)`,
      [organizationId, content.id, principal.id, role],
    );
  return { before: previous };
}

/** Grants (or, with null, removes) the role of each principal on the content, in one transaction, each change audited. */
async function setGrants(
  sql: Sql,
  organizationId: string,
  content: ContentRef,
  principals: readonly PrincipalRef[],
  role: MemberRole | null,
  actor: AuditActor,
): Promise<void> {
  await sql.transaction(async (tx) => {
    await assertContent(tx, organizationId, content);
    for (const principal of principals) {
      await assertPrincipal(tx, organizationId, principal);
      const { before } = await setOne(tx, organizationId, content, principal, role);
      if (before !== role)
        await recordAudit(
          tx,
          organizationId,
          actor,
          'permission.set',
          { [content.kind]: content.id, [principal.kind]: principal.id },
          { before: { role: before }, after: { role: role } },
        );
    }
  });
}

export function createPermissionStore(sql: Sql): PermissionStore {
  return {
    set: (organizationId, content, principals, role, actor) => setGrants(sql, organizationId, content, principals, checkRole(role), actor),
    async remove(organizationId, content, principal, actor) {
      return sql.transaction(async (tx) => {
        const gone = await tx.query<{ role: string }>(
          `DELETE FROM content_permissions WHERE organization_id = $1 AND ${contentColumn(content)} = $2 AND ${principalColumn(principal)} = $3 RETURNING role`,
          [organizationId, content.id, principal.id],
        );
        if (!gone[0]) return false;
        await recordAudit(
          tx,
          organizationId,
          actor,
          'permission.remove',
          { [content.kind]: content.id, [principal.kind]: principal.id },
          { before: { role: gone[0].role } },
        );
        return true;
      });
    },
    async list(content, principalKind, options) {
      const limit = checkLimit(options);
      const after = decodeCursor(`grants-${principalKind}`, options.page) ?? 0;
      const where = `${contentColumn(content)} = $1 AND ${principalKind === 'user' ? 'user_id' : 'team_id'} IS NOT NULL`;
      const total = await countRows(sql, `content_permissions WHERE ${where}`, [content.id]);
      const rows = await sql.query<GrantRow>(`SELECT * FROM content_permissions WHERE ${where} AND seq > $2 ORDER BY seq LIMIT $3`, [
        content.id,
        after,
        limit + 1,
      ]);
      return { ...paginate(`grants-${principalKind}`, rows, limit, grantFromRow), total };
    },
    async forPrincipals(contents, userId, teamIds) {
      const spaces = contents.filter((c) => c.kind === 'space').map((c) => c.id);
      const collections = contents.filter((c) => c.kind === 'collection').map((c) => c.id);
      if (spaces.length + collections.length === 0) return [];
      const params: SqlParam[] = [spaces, collections, userId, [...teamIds]];
      const rows = await sql.query<GrantRow>(
        `SELECT * FROM content_permissions WHERE (space_id = ANY($1::text[]) OR collection_id = ANY($2::text[]))
           AND (user_id = $3 OR team_id = ANY($4::text[]))`,
        params,
      );
      return rows.map(grantFromRow);
    },
    async spaceGrantsOf(organizationId, userId, teamIds) {
      const rows = await sql.query<GrantRow>(
        `SELECT * FROM content_permissions WHERE organization_id = $1 AND space_id IS NOT NULL AND (user_id = $2 OR team_id = ANY($3::text[])) ORDER BY seq`,
        [organizationId, userId, [...teamIds]],
      );
      return rows.map(grantFromRow);
    },
    async countSpacesOfUsers(organizationId, userIds) {
      const out = new Map<string, number>();
      if (userIds.length === 0) return out;
      const rows = await sql.query<{ user_id: string; n: string | number }>(
        `SELECT user_id, count(*) AS n FROM content_permissions WHERE organization_id = $1 AND space_id IS NOT NULL AND user_id = ANY($2::text[]) GROUP BY user_id`,
        [organizationId, [...new Set(userIds)]],
      );
      for (const row of rows) out.set(row.user_id, Number(row.n));
      return out;
    },
  };
}
