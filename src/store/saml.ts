import { NotFoundError, ValidationError } from '../errors.js';
import { recordAudit } from './audit.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { newId } from './ids.js';
import { checkRole } from './people.js';
import { toDate } from './sql-helpers.js';
import type { Json, SamlProviderInput, SamlProviderRecord, SamlStore, Sql, SqlParam } from './types/index.js';

interface ProviderRow {
  id: string;
  seq: string | number;
  organization_id: string;
  label: string;
  entity_id: string | null;
  sso_url: string | null;
  certificate: string | null;
  default_team_id: string | null;
  default_role: string | null;
  created_at: unknown;
  updated_at: unknown;
}

function providerFromRow(row: ProviderRow): SamlProviderRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    label: row.label,
    entityId: row.entity_id,
    ssoUrl: row.sso_url,
    certificate: row.certificate,
    defaultTeamId: row.default_team_id,
    defaultRole: checkRole(row.default_role),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

const LIMITS = { label: 30, entityId: 1024, ssoUrl: 2048, certificate: 10000 } as const;

function checkText(name: keyof typeof LIMITS, value: unknown, nullable: boolean): string | null {
  if (value === null && nullable) return null;
  if (typeof value !== 'string' || value.length > LIMITS[name] || (name === 'label' && value.length < 1))
    throw new ValidationError(`${name} is a string of ${name === 'label' ? '1 to ' : 'at most '}${LIMITS[name]} characters`);
  if (name === 'ssoUrl' && !/^https?:\/\//i.test(value)) throw new ValidationError('ssoURL is an http(s) URL');
  return value;
}

/** The columns a provider input sets (only the keys present), checked. */
function columnsOf(input: SamlProviderInput): Array<[string, SqlParam]> {
  const out: Array<[string, SqlParam]> = [];
  if (input.label !== undefined) out.push(['label', checkText('label', input.label, false)]);
  if (input.entityId !== undefined) out.push(['entity_id', checkText('entityId', input.entityId, true)]);
  if (input.ssoUrl !== undefined) out.push(['sso_url', checkText('ssoUrl', input.ssoUrl, true)]);
  if (input.certificate !== undefined) out.push(['certificate', checkText('certificate', input.certificate, true)]);
  if (input.defaultTeamId !== undefined) out.push(['default_team_id', input.defaultTeamId]);
  if (input.defaultRole !== undefined) out.push(['default_role', checkRole(input.defaultRole, 'defaultRole')]);
  return out;
}

/** What the audit trail keeps of a provider: never the certificate's text, only whether one is set. */
const auditView = (row: ProviderRow): Json => ({
  label: row.label,
  entityID: row.entity_id,
  ssoURL: row.sso_url,
  certificate: row.certificate !== null,
  defaultTeam: row.default_team_id,
  defaultRole: row.default_role,
});

async function assertTeam(tx: Sql, organizationId: string, teamId: string | null | undefined): Promise<void> {
  if (teamId === undefined || teamId === null) return;
  const rows = await tx.query('SELECT 1 FROM teams WHERE organization_id = $1 AND id = $2', [organizationId, teamId]);
  if (rows.length === 0) throw new NotFoundError('team', teamId);
}

export function createSamlStore(sql: Sql): SamlStore {
  const get = async (organizationId: string, id: string) => {
    const rows = await sql.query<ProviderRow>('SELECT * FROM saml_providers WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return rows[0] ? providerFromRow(rows[0]) : null;
  };
  return {
    async create(organizationId, input, actor) {
      const columns = columnsOf(input);
      return sql.transaction(async (tx) => {
        await assertTeam(tx, organizationId, input.defaultTeamId);
        const id = newId();
        const names = ['id', 'organization_id', ...columns.map(([c]) => c)];
        const params: SqlParam[] = [id, organizationId, ...columns.map(([, v]) => v)];
        const rows = await tx.query<ProviderRow>(
          `INSERT INTO saml_providers (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
          params,
        );
        await recordAudit(tx, organizationId, actor, 'saml.create', { samlProvider: id }, { after: auditView(rows[0]!) });
        return providerFromRow(rows[0]!);
      });
    },
    get,
    async byId(id) {
      const rows = await sql.query<ProviderRow>('SELECT * FROM saml_providers WHERE id = $1', [id]);
      return rows[0] ? providerFromRow(rows[0]) : null;
    },
    async list(organizationId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('saml', options.page) ?? 0;
      const total = await countRows(sql, 'saml_providers WHERE organization_id = $1', [organizationId]);
      const rows = await sql.query<ProviderRow>('SELECT * FROM saml_providers WHERE organization_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [
        organizationId,
        after,
        limit + 1,
      ]);
      return { ...paginate('saml', rows, limit, providerFromRow), total };
    },
    async update(organizationId, id, patch, actor) {
      const columns = columnsOf(patch);
      return sql.transaction(async (tx) => {
        await assertTeam(tx, organizationId, patch.defaultTeamId);
        const before = await tx.query<ProviderRow>('SELECT * FROM saml_providers WHERE organization_id = $1 AND id = $2 FOR UPDATE', [organizationId, id]);
        if (!before[0]) throw new NotFoundError('SAML provider', id);
        if (columns.length === 0) return providerFromRow(before[0]);
        const sets = columns.map(([c], i) => `${c} = $${i + 3}`).join(', ');
        const rows = await tx.query<ProviderRow>(`UPDATE saml_providers SET ${sets}, updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING *`, [
          organizationId,
          id,
          ...columns.map(([, v]) => v),
        ]);
        await recordAudit(tx, organizationId, actor, 'saml.update', { samlProvider: id }, { before: auditView(before[0]), after: auditView(rows[0]!) });
        return providerFromRow(rows[0]!);
      });
    },
    async delete(organizationId, id, actor) {
      return sql.transaction(async (tx) => {
        const gone = await tx.query<ProviderRow>('DELETE FROM saml_providers WHERE organization_id = $1 AND id = $2 RETURNING *', [organizationId, id]);
        if (!gone[0]) return false;
        await recordAudit(tx, organizationId, actor, 'saml.delete', { samlProvider: id }, { before: auditView(gone[0]) });
        return true;
      });
    },
    ...replayGuards(sql),
  };
}

/** The request ids Folio sent and the assertion ids it accepted: each taken once, whatever the number of API processes. */
function replayGuards(sql: Sql): Pick<SamlStore, 'saveRequest' | 'takeRequest' | 'consumeAssertion'> {
  return {
    async saveRequest(providerId, requestId) {
      await sql.query('INSERT INTO saml_requests (provider_id, request_id, value) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [providerId, requestId, '']);
      // Requests never answered are forgotten after a day.
      await sql.query(`DELETE FROM saml_requests WHERE created_at < now() - interval '1 day'`);
    },
    async takeRequest(providerId, requestId, maxAgeMs) {
      const rows = await sql.query<{ fresh: boolean }>(
        `DELETE FROM saml_requests WHERE provider_id = $1 AND request_id = $2 RETURNING created_at > now() - $3::int * interval '1 millisecond' AS fresh`,
        [providerId, requestId, Math.max(0, Math.floor(maxAgeMs))],
      );
      return rows[0]?.fresh === true;
    },
    async consumeAssertion(providerId, assertionId, expiresAt) {
      await sql.query('DELETE FROM saml_assertions_seen WHERE expires_at < now()');
      const rows = await sql.query(
        'INSERT INTO saml_assertions_seen (provider_id, assertion_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING assertion_id',
        [providerId, assertionId, expiresAt],
      );
      return rows.length > 0;
    },
  };
}
