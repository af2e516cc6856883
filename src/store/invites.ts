import { randomBytes } from 'node:crypto';
import { NotFoundError } from '../errors.js';
import { recordAudit } from './audit.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { checkRole } from './people.js';
import { toDate } from './sql-helpers.js';
import type { AuditActor, InviteRecord, InviteStore, InviteTarget, Json, MemberRole, Sql } from './types/index.js';

interface InviteRow {
  id: string;
  seq: string | number;
  organization_id: string;
  space_id: string | null;
  collection_id: string | null;
  role: string | null;
  created_by: string | null;
  created_at: unknown;
}

function inviteFromRow(row: InviteRow): InviteRecord {
  const target: InviteTarget =
    row.space_id !== null
      ? { kind: 'space', spaceId: row.space_id }
      : row.collection_id !== null
        ? { kind: 'collection', collectionId: row.collection_id }
        : { kind: 'organization' };
  return {
    id: row.id,
    organizationId: row.organization_id,
    target,
    role: row.role as MemberRole | null,
    createdBy: row.created_by,
    createdAt: toDate(row.created_at),
  };
}

const targetJson = (target: InviteTarget): Json =>
  target.kind === 'space' ? { space: target.spaceId } : target.kind === 'collection' ? { collection: target.collectionId } : { organization: true };

/** A link invite: its id is a fresh secret. */
async function createInvite(sql: Sql, organizationId: string, input: Parameters<InviteStore['create']>[1], actor: AuditActor): Promise<InviteRecord> {
  const role = checkRole(input.role);
  const id = `inv_${randomBytes(32).toString('base64url')}`;
  return sql.transaction(async (tx) => {
    if (input.target.kind === 'space') {
      const space = await tx.query('SELECT 1 FROM spaces WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL', [
        input.target.spaceId,
        organizationId,
      ]);
      if (space.length === 0) throw new NotFoundError('space', input.target.spaceId);
    }
    const rows = await tx.query<InviteRow>(
      `INSERT INTO organization_invites (id, organization_id, space_id, collection_id, role, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [
        id,
        organizationId,
        input.target.kind === 'space' ? input.target.spaceId : null,
        input.target.kind === 'collection' ? input.target.collectionId : null,
        role,
        input.createdBy ?? null,
      ],
    );
    await recordAudit(tx, organizationId, actor, 'invite.create', { invite: id.slice(0, 12), ...(targetJson(input.target) as object) }, { after: { role } });
    return inviteFromRow(rows[0]!);
  });
}

/**
 * Link invites: the id is the invitation's secret (whoever holds it may join), so it is 32 random bytes, not a
 * plain id: `inv_` + 43 base64url characters.
 */
export function createInviteStore(sql: Sql): InviteStore {
  const get = async (organizationId: string, id: string) => {
    const rows = await sql.query<InviteRow>('SELECT * FROM organization_invites WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return rows[0] ? inviteFromRow(rows[0]) : null;
  };
  return {
    create: (organizationId, input, actor) => createInvite(sql, organizationId, input, actor),
    get,
    async list(organizationId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('invites', options.page) ?? 0;
      const where = `organization_id = $1${options.organizationOnly ? ' AND space_id IS NULL AND collection_id IS NULL' : ''}`;
      const total = await countRows(sql, `organization_invites WHERE ${where}`, [organizationId]);
      const rows = await sql.query<InviteRow>(`SELECT * FROM organization_invites WHERE ${where} AND seq > $2 ORDER BY seq LIMIT $3`, [
        organizationId,
        after,
        limit + 1,
      ]);
      return { ...paginate('invites', rows, limit, inviteFromRow), total };
    },
    async update(organizationId, id, role, actor) {
      const next = checkRole(role);
      return sql.transaction(async (tx) => {
        const before = await tx.query<InviteRow>('SELECT * FROM organization_invites WHERE organization_id = $1 AND id = $2 FOR UPDATE', [organizationId, id]);
        if (!before[0]) throw new NotFoundError('invite', id.slice(0, 12));
        const rows = await tx.query<InviteRow>('UPDATE organization_invites SET role = $3 WHERE organization_id = $1 AND id = $2 RETURNING *', [
          organizationId,
          id,
          next,
        ]);
        if (before[0].role !== next)
          await recordAudit(
            tx,
            organizationId,
            actor,
            'invite.update',
            { invite: id.slice(0, 12) },
            { before: { role: before[0].role }, after: { role: next } },
          );
        return inviteFromRow(rows[0]!);
      });
    },
    async delete(organizationId, id, actor) {
      return sql.transaction(async (tx) => {
        const gone = await tx.query<{ role: string | null }>('DELETE FROM organization_invites WHERE organization_id = $1 AND id = $2 RETURNING role', [
          organizationId,
          id,
        ]);
        if (!gone[0]) return false;
        await recordAudit(tx, organizationId, actor, 'invite.delete', { invite: id.slice(0, 12) }, { before: { role: gone[0].role } });
        return true;
      });
    },
  };
}
