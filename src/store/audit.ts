import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { newId } from './ids.js';
import { json, toDate } from './sql-helpers.js';
import type { AuditActor, AuditEventRecord, AuditStore, Json, Sql } from './types/index.js';

/**
 * The audit trail of role and permission changes (`audit_events`). Every store member that changes a role, a
 * membership, a team, a grant, an invite or a SAML provider records its event here in the same transaction as the
 * change, so a change is never without its event.
 */
export async function recordAudit(
  tx: Sql,
  organizationId: string,
  actor: AuditActor,
  action: string,
  target: Json,
  change: { before?: Json; after?: Json } = {},
): Promise<void> {
  await tx.query(
    `INSERT INTO audit_events (id, organization_id, actor_user_id, actor_token_id, via, action, target, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb)`,
    [newId(), organizationId, actor.userId ?? null, actor.tokenId ?? null, actor.via, action, json(target), json(change.before), json(change.after)],
  );
}

interface AuditRow {
  id: string;
  seq: string | number;
  organization_id: string;
  actor_user_id: string | null;
  actor_token_id: string | null;
  via: string;
  action: string;
  target: Json;
  before: Json;
  after: Json;
  created_at: unknown;
}

function fromRow(row: AuditRow): AuditEventRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    actor: { userId: row.actor_user_id, tokenId: row.actor_token_id, via: row.via },
    action: row.action,
    target: row.target,
    before: row.before ?? null,
    after: row.after ?? null,
    createdAt: toDate(row.created_at),
  };
}

export function createAuditStore(sql: Sql): AuditStore {
  return {
    async list(organizationId, options) {
      const limit = checkLimit(options);
      const before = decodeCursor('audit', options.page);
      const params: (string | number)[] = [organizationId];
      let where = 'organization_id = $1';
      if (options.action) {
        params.push(options.action);
        where += ` AND action = $${params.length}`;
      }
      const total = await countRows(sql, `audit_events WHERE ${where}`, params);
      const rows = await sql.query<AuditRow>(
        `SELECT * FROM audit_events WHERE ${where}${before === null ? '' : ` AND seq < ${Number(before)}`} ORDER BY seq DESC LIMIT ${limit + 1}`,
        params,
      );
      return { ...paginate('audit', rows, limit, fromRow), total };
    },
  };
}
