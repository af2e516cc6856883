import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { EVENT_COLUMNS, eventFromRow } from './events.js';
import { newId } from './ids.js';
import { json, toBytes, toDate, toDateOrNull } from './sql-helpers.js';
import type {
  DeliveryLogRecord,
  DeliveryRecord,
  InstallationRecord,
  IntegrationRecord,
  IntegrationStore,
  IntegrationTarget,
  IntegrationVisibility,
  JsonObject,
  Sql,
  SqlParam,
} from './types/index.js';

interface IntegrationRow {
  name: string;
  organization_id: string;
  version: number;
  title: string;
  description: string;
  summary: string | null;
  target: string;
  visibility: string;
  scopes: string[];
  categories: string[];
  has_webhook: boolean;
  dev_all: boolean | null;
  created_at: unknown;
  updated_at: unknown;
}

const INTEGRATION_COLUMNS = `name, organization_id, version, title, description, summary, target, visibility, scopes, categories,
  (webhook_url IS NOT NULL) AS has_webhook, CASE WHEN dev_tunnel_url IS NULL THEN NULL ELSE dev_all END AS dev_all, created_at, updated_at`;

const integrationFromRow = (r: IntegrationRow): IntegrationRecord => ({
  name: r.name,
  organizationId: r.organization_id,
  version: Number(r.version),
  title: r.title,
  description: r.description,
  summary: r.summary,
  target: r.target as IntegrationTarget,
  visibility: r.visibility as IntegrationVisibility,
  scopes: r.scopes,
  categories: r.categories,
  hasWebhook: r.has_webhook,
  devMode: r.dev_all === null ? null : { all: r.dev_all },
  createdAt: toDate(r.created_at),
  updatedAt: toDate(r.updated_at),
});

interface InstallationRow {
  id: string;
  seq: string | number;
  integration_name: string;
  organization_id: string;
  status: string;
  space_selection: string;
  spaces: string[] | null;
  site_selection: string;
  sites: string[] | null;
  configuration: JsonObject;
  created_at: unknown;
  updated_at: unknown;
}

const INSTALLATION_COLUMNS = `i.id, i.seq, i.integration_name, i.organization_id, i.status, i.space_selection, i.configuration, i.created_at, i.updated_at,
  ARRAY(SELECT s.space_id FROM integration_installation_spaces s WHERE s.installation_id = i.id ORDER BY s.space_id) AS spaces, i.site_selection,
  ARRAY(SELECT t.site_id FROM integration_installation_sites t WHERE t.installation_id = i.id ORDER BY t.site_id) AS sites`;

const installationFromRow = (r: InstallationRow): InstallationRecord => ({
  id: r.id,
  integrationName: r.integration_name,
  organizationId: r.organization_id,
  status: r.status as InstallationRecord['status'],
  spaceSelection: r.space_selection === 'selected' ? 'selected' : 'all',
  spaces: r.spaces ?? [],
  siteSelection: r.site_selection === 'selected' ? 'selected' : 'all',
  sites: r.sites ?? [],
  configuration: r.configuration,
  createdAt: toDate(r.created_at),
  updatedAt: toDate(r.updated_at),
});

const DELIVERY_SELECT = `SELECT d.id AS d_id, d.installation_id, i.integration_name, d.status AS d_status, d.attempts, d.created_at AS d_created_at, d.finished_at,
  ${EVENT_COLUMNS.split(', ')
    .map((c) => `e.${c}`)
    .join(', ')}
  FROM integration_deliveries d JOIN content_events e ON e.position = d.event_position JOIN integration_installations i ON i.id = d.installation_id`;

type DeliveryRow = Parameters<typeof eventFromRow>[0] & {
  d_id: string;
  installation_id: string;
  integration_name: string;
  d_status: string;
  attempts: number;
  d_created_at: unknown;
  finished_at: unknown;
};

const deliveryFromRow = (r: DeliveryRow): DeliveryRecord => ({
  id: r.d_id,
  installationId: r.installation_id,
  integrationName: r.integration_name,
  status: r.d_status as DeliveryRecord['status'],
  attempts: Number(r.attempts),
  event: eventFromRow(r),
  createdAt: toDate(r.d_created_at),
  finishedAt: toDateOrNull(r.finished_at),
});

function cursor(kind: string, n: number): string {
  return Buffer.from(JSON.stringify([kind, n])).toString('base64url');
}

function after(kind: string, page: string | undefined): number | null {
  if (!page) return null;
  try {
    const [k, n] = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as [unknown, unknown];
    if (k === kind && Number.isInteger(n)) return n as number;
  } catch {
    // fall through
  }
  throw new ValidationError('page is not a valid cursor for this list');
}

async function publish(sql: Sql, name: string, input: Parameters<IntegrationStore['publish']>[1]): Promise<IntegrationRecord> {
  return sql.transaction(async (tx) => {
    const existing = await tx.query<{ organization_id: string }>('SELECT organization_id FROM integrations WHERE name = $1 FOR UPDATE', [name]);
    if (existing[0] && existing[0].organization_id !== input.organizationId) throw new ConflictError('the integration name is taken', { name });
    const keepWebhook = input.webhook === undefined;
    const rows = await tx.query<IntegrationRow>(
      `INSERT INTO integrations (name, organization_id, title, description, summary, target, visibility, scopes, categories, webhook_url, webhook_secret)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11)
       ON CONFLICT (name) DO UPDATE SET version = integrations.version + 1, title = EXCLUDED.title, description = EXCLUDED.description,
         summary = EXCLUDED.summary, target = EXCLUDED.target, visibility = EXCLUDED.visibility, scopes = EXCLUDED.scopes,
         categories = EXCLUDED.categories, updated_at = now(),
         webhook_url = CASE WHEN $12 THEN integrations.webhook_url ELSE EXCLUDED.webhook_url END,
         webhook_secret = CASE WHEN $12 THEN integrations.webhook_secret ELSE EXCLUDED.webhook_secret END
       RETURNING ${INTEGRATION_COLUMNS}`,
      [
        name,
        input.organizationId,
        input.title,
        input.description,
        input.summary ?? null,
        input.target,
        input.visibility,
        json(input.scopes),
        json(input.categories),
        input.webhook?.url ?? null,
        input.webhook?.secret ?? null,
        keepWebhook,
      ],
    );
    return integrationFromRow(rows[0]!);
  });
}

/** Replaces an installation's selected spaces or sites (each of its organization; ValidationError naming the first that is not). */
async function selectObjects(tx: Sql, id: string, organizationId: string, kind: 'space' | 'site', ids: string[]): Promise<void> {
  const table = kind === 'space' ? 'spaces' : 'sites';
  const live = kind === 'space' ? 'AND deleted_at IS NULL' : '';
  const found = await tx.query<{ id: string }>(`SELECT id FROM ${table} WHERE id = ANY($1::text[]) AND organization_id = $2 ${live}`, [ids, organizationId]);
  const missing = ids.filter((s) => !found.some((f) => f.id === s));
  if (missing.length > 0) throw new ValidationError(`${kind} not found: ${missing[0]!.slice(0, 100)}`);
  await tx.query(`DELETE FROM integration_installation_${table} WHERE installation_id = $1`, [id]);
  for (const objectId of new Set(ids))
    await tx.query(`INSERT INTO integration_installation_${table} (installation_id, ${kind}_id) VALUES ($1, $2)`, [id, objectId]);
}

async function updateInstallation(sql: Sql, id: string, patch: Parameters<IntegrationStore['updateInstallation']>[1]): Promise<InstallationRecord> {
  return sql.transaction(async (tx) => {
    const rows = await tx.query<{ organization_id: string }>('SELECT organization_id FROM integration_installations WHERE id = $1 FOR UPDATE', [id]);
    if (!rows[0]) throw new NotFoundError('installation', id);
    if (patch.spaces !== undefined) await selectObjects(tx, id, rows[0].organization_id, 'space', patch.spaces);
    if (patch.sites !== undefined) await selectObjects(tx, id, rows[0].organization_id, 'site', patch.sites);
    await tx.query(
      `UPDATE integration_installations SET space_selection = COALESCE($2, space_selection), status = COALESCE($3, status),
         configuration = COALESCE($4::jsonb, configuration), site_selection = COALESCE($5, site_selection), updated_at = now() WHERE id = $1`,
      [id, patch.spaceSelection ?? null, patch.status ?? null, json(patch.configuration), patch.siteSelection ?? null],
    );
    const out = await tx.query<InstallationRow>(`SELECT ${INSTALLATION_COLUMNS} FROM integration_installations i WHERE i.id = $1`, [id]);
    return installationFromRow(out[0]!);
  });
}

/** Integrations by name: public ones and those of the caller's organizations, with the spec's filters. */
async function listIntegrations(sql: Sql, options: Parameters<IntegrationStore['list']>[0]) {
  const params: unknown[] = [options.organizationIds];
  let where = "(visibility = 'public' OR organization_id = ANY($1::text[]))";
  if (options.owner !== undefined) where += ` AND organization_id = $${params.push(options.owner)}`;
  if (options.target !== undefined) where += ` AND target = $${params.push(options.target)}`;
  if (options.category !== undefined) where += ` AND categories @> jsonb_build_array($${params.push(options.category)}::text)`;
  if (options.search) where += ` AND (name ILIKE $${params.push(`%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)} OR title ILIKE $${params.length})`;
  const from = options.page ? pageName(options.page) : '';
  const rows = await sql.query<IntegrationRow>(
    `SELECT ${INTEGRATION_COLUMNS} FROM integrations WHERE ${where} AND name > $${params.push(from)} ORDER BY name LIMIT $${params.push(options.limit + 1)}`,
    params as SqlParam[],
  );
  const counted = await sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM integrations WHERE ${where}`, params.slice(0, -2) as SqlParam[]);
  const items = rows.slice(0, options.limit).map(integrationFromRow);
  const total = Number(counted[0]?.n ?? 0);
  return rows.length > options.limit ? { items, next: { page: nameCursor(items[items.length - 1]!.name) }, total } : { items, total };
}

const nameCursor = (name: string) => Buffer.from(JSON.stringify(['intg', name])).toString('base64url');
function pageName(page: string): string {
  try {
    const [k, n] = JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as [unknown, unknown];
    if (k === 'intg' && typeof n === 'string') return n;
  } catch {
    // fall through
  }
  throw new ValidationError('page is not a valid cursor for this list');
}

const getInstallation = async (sql: Sql, id: string): Promise<InstallationRecord | null> => {
  const rows = await sql.query<InstallationRow>(`SELECT ${INSTALLATION_COLUMNS} FROM integration_installations i WHERE i.id = $1`, [id]);
  return rows[0] ? installationFromRow(rows[0]) : null;
};

/** Integrations themselves: publishing, reading, deleting, their webhook and development tunnel. */
function createIntegrationRecordStore(sql: Sql): Pick<IntegrationStore, 'publish' | 'get' | 'webhook' | 'delete' | 'setDevMode' | 'devTunnel' | 'list'> {
  return {
    publish: (name, input) => publish(sql, name, input),
    async get(name) {
      const rows = await sql.query<IntegrationRow>(`SELECT ${INTEGRATION_COLUMNS} FROM integrations WHERE name = $1`, [name]);
      return rows[0] ? integrationFromRow(rows[0]) : null;
    },
    async webhook(name) {
      const rows = await sql.query<{ webhook_url: unknown; webhook_secret: unknown }>('SELECT webhook_url, webhook_secret FROM integrations WHERE name = $1', [
        name,
      ]);
      const r = rows[0];
      return r && r.webhook_url !== null && r.webhook_secret !== null ? { url: toBytes(r.webhook_url), secret: toBytes(r.webhook_secret) } : null;
    },
    async delete(name) {
      return (await sql.query('DELETE FROM integrations WHERE name = $1 RETURNING name', [name])).length > 0;
    },
    async setDevMode(name, dev) {
      const rows = await sql.query('UPDATE integrations SET dev_tunnel_url = $2, dev_all = $3 WHERE name = $1 RETURNING name', [
        name,
        dev?.tunnelUrl ?? null,
        dev?.all ?? false,
      ]);
      return rows.length > 0;
    },
    async devTunnel(name) {
      const rows = await sql.query<{ dev_tunnel_url: unknown; dev_all: boolean }>('SELECT dev_tunnel_url, dev_all FROM integrations WHERE name = $1', [name]);
      const r = rows[0];
      return r && r.dev_tunnel_url !== null ? { url: toBytes(r.dev_tunnel_url), all: r.dev_all } : null;
    },
    list: (options) => listIntegrations(sql, options),
  };
}

/** Installations of an integration in organizations. */
function createInstallationStore(sql: Sql): Pick<IntegrationStore, 'install' | 'installation' | 'installations' | 'subscribers' | 'updateInstallation'> {
  return {
    async install(name, organizationId) {
      return sql.transaction(async (tx) => {
        const inserted = await tx.query<{ id: string }>(
          `INSERT INTO integration_installations (id, integration_name, organization_id) VALUES ($1, $2, $3)
           ON CONFLICT (integration_name, organization_id) DO NOTHING RETURNING id`,
          [`inst_${newId()}`, name, organizationId],
        );
        const rows = await tx.query<InstallationRow>(
          `SELECT ${INSTALLATION_COLUMNS} FROM integration_installations i WHERE i.integration_name = $1 AND i.organization_id = $2`,
          [name, organizationId],
        );
        return { installation: installationFromRow(rows[0]!), created: inserted.length > 0 };
      });
    },
    installation: (id) => getInstallation(sql, id),
    async installations(name, options) {
      const from = after('inst', options.page) ?? 0;
      const rows = await sql.query<InstallationRow>(
        `SELECT ${INSTALLATION_COLUMNS} FROM integration_installations i WHERE i.integration_name = $1 AND i.seq > $2 ORDER BY i.seq LIMIT $3`,
        [name, from, options.limit + 1],
      );
      const items = rows.slice(0, options.limit).map(installationFromRow);
      const [{ n }] = (await sql.query<{ n: string | number }>('SELECT count(*) AS n FROM integration_installations WHERE integration_name = $1', [name])) as [
        { n: string | number },
      ];
      const total = Number(n);
      return rows.length > options.limit ? { items, next: { page: cursor('inst', Number(rows[options.limit - 1]!.seq)) }, total } : { items, total };
    },
    async subscribers(afterSeq, limit) {
      const rows = await sql.query<{ seq: string | number; id: string; integration_name: string; organization_id: string }>(
        'SELECT seq, id, integration_name, organization_id FROM integration_installations WHERE seq > $1 ORDER BY seq LIMIT $2',
        [afterSeq, limit],
      );
      return rows.map((r) => ({ seq: Number(r.seq), id: r.id, integrationName: r.integration_name, organizationId: r.organization_id }));
    },
    updateInstallation: (id, patch) => updateInstallation(sql, id, patch),
  };
}

/** Event deliveries to installations, their attempts and logs. */
function createDeliveryStore(sql: Sql): Pick<IntegrationStore, 'pendingDeliveries' | 'delivery' | 'deliveries' | 'recordAttempt' | 'finishDelivery' | 'logs'> {
  return {
    async pendingDeliveries(installationId, limit) {
      const rows = await sql.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.installation_id = $1 AND d.status = 'pending' ORDER BY d.event_position LIMIT $2`, [
        installationId,
        limit,
      ]);
      return rows.map(deliveryFromRow);
    },
    async delivery(id) {
      const rows = await sql.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.id = $1`, [id]);
      return rows[0] ? deliveryFromRow(rows[0]) : null;
    },
    async deliveries(name, options) {
      const before = after('dlv', options.page);
      const rows = await sql.query<DeliveryRow & { position: string | number }>(
        `${DELIVERY_SELECT} WHERE i.integration_name = $1 AND d.status <> 'pending' AND ($2::bigint IS NULL OR e.position < $2) ORDER BY e.position DESC LIMIT $3`,
        [name, before, options.limit + 1],
      );
      const items = rows.slice(0, options.limit).map(deliveryFromRow);
      const [{ n }] = (await sql.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM integration_deliveries d JOIN integration_installations i ON i.id = d.installation_id
         WHERE i.integration_name = $1 AND d.status <> 'pending'`,
        [name],
      )) as [{ n: string | number }];
      const total = Number(n);
      return rows.length > options.limit ? { items, next: { page: cursor('dlv', items[items.length - 1]!.event.position) }, total } : { items, total };
    },
    async recordAttempt(id, log) {
      await sql.transaction(async (tx) => {
        await tx.query('UPDATE integration_deliveries SET attempts = attempts + 1 WHERE id = $1', [id]);
        await tx.query('INSERT INTO integration_delivery_logs (delivery_id, level, message) VALUES ($1, $2, $3)', [id, log.level, log.message.slice(0, 2000)]);
      });
    },
    async finishDelivery(id, status, log) {
      return sql.transaction(async (tx) => {
        const rows = await tx.query(`UPDATE integration_deliveries SET status = $2, finished_at = now() WHERE id = $1 AND status = 'pending' RETURNING id`, [
          id,
          status,
        ]);
        if (rows.length > 0)
          await tx.query('INSERT INTO integration_delivery_logs (delivery_id, level, message) VALUES ($1, $2, $3)', [
            id,
            log.level,
            log.message.slice(0, 2000),
          ]);
        return rows.length > 0;
      });
    },
    async logs(id) {
      const rows = await sql.query<{ level: string; message: string; at: unknown }>(
        'SELECT level, message, at FROM integration_delivery_logs WHERE delivery_id = $1 ORDER BY id',
        [id],
      );
      return rows.map((r) => ({ level: r.level as DeliveryLogRecord['level'], message: r.message, at: toDate(r.at) }));
    },
  };
}

export function createIntegrationStore(sql: Sql): IntegrationStore {
  return { ...createIntegrationRecordStore(sql), ...createInstallationStore(sql), ...createDeliveryStore(sql) };
}
