/**
 * A site's customization, its site spaces' overrides and its redirects (migration 029). Every query is scoped by
 * the site's id; the API reaches a site through its organization first.
 */
import { ConflictError, NotFoundError } from '../errors.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { newId } from './ids.js';
import { json, sqlState, toDate, toDateOrNull } from './sql-helpers.js';
import type { CustomHostnameRecord, SiteRedirectRecord, SiteSettingsStore, Sql, SqlParam, StoredCustomization } from './types/index.js';

const parsed = (v: unknown): Record<string, unknown> => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;

interface RedirectRow {
  id: string;
  seq: string | number;
  site_id: string;
  source: string;
  draft: boolean;
  capture_wildcard: boolean;
  permanent: boolean;
  destination: unknown;
  created_at: unknown;
  updated_at: unknown;
}

const REDIRECT_COLUMNS = 'id, seq, site_id, source, draft, capture_wildcard, permanent, destination, created_at, updated_at';

const redirectFromRow = (row: RedirectRow): SiteRedirectRecord => ({
  id: row.id,
  siteId: row.site_id,
  source: row.source,
  draft: row.draft,
  captureWildcard: row.capture_wildcard,
  permanent: row.permanent,
  destination: parsed(row.destination),
  createdAt: toDate(row.created_at),
  updatedAt: toDateOrNull(row.updated_at),
});

const customizationFromRow = (row: { settings: unknown; updated_at: unknown }): StoredCustomization => ({
  settings: parsed(row.settings),
  updatedAt: toDate(row.updated_at),
});

async function taken<T>(source: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (sqlState(err) === '23505') throw new ConflictError(`the site has a redirect from ${source} already`, { source });
    throw err;
  }
}

function createCustomizationStore(sql: Sql) {
  return {
    async customization(siteId: string) {
      const rows = await sql.query<{ settings: unknown; updated_at: unknown }>('SELECT settings, updated_at FROM site_customizations WHERE site_id = $1', [
        siteId,
      ]);
      return rows[0] ? customizationFromRow(rows[0]) : null;
    },
    async putCustomization(siteId: string, settings: Record<string, unknown>) {
      const rows = await sql.query<{ settings: unknown; updated_at: unknown }>(
        `INSERT INTO site_customizations (site_id, settings) VALUES ($1, $2::jsonb)
         ON CONFLICT (site_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now() RETURNING settings, updated_at`,
        [siteId, json(settings)],
      );
      return customizationFromRow(rows[0]!);
    },
    async siteSpaceCustomization(siteId: string, siteSpaceId: string) {
      const rows = await sql.query<{ overrides: unknown; updated_at: unknown }>(
        'SELECT overrides, updated_at FROM site_space_customizations WHERE site_id = $1 AND site_space_id = $2',
        [siteId, siteSpaceId],
      );
      return rows[0] ? customizationFromRow({ settings: rows[0].overrides, updated_at: rows[0].updated_at }) : null;
    },
    async putSiteSpaceCustomization(siteId: string, siteSpaceId: string, overrides: Record<string, unknown>) {
      const rows = await sql.query<{ overrides: unknown; updated_at: unknown }>(
        `INSERT INTO site_space_customizations (site_space_id, site_id, overrides)
         SELECT id, site_id, $3::jsonb FROM site_spaces WHERE id = $2 AND site_id = $1
         ON CONFLICT (site_space_id) DO UPDATE SET overrides = EXCLUDED.overrides, updated_at = now() RETURNING overrides, updated_at`,
        [siteId, siteSpaceId, json(overrides)],
      );
      if (!rows[0]) throw new NotFoundError('site space', siteSpaceId);
      return customizationFromRow({ settings: rows[0].overrides, updated_at: rows[0].updated_at });
    },
    async siteSpaceCustomizations(siteId: string) {
      const rows = await sql.query<{ site_space_id: string; overrides: unknown }>(
        'SELECT site_space_id, overrides FROM site_space_customizations WHERE site_id = $1',
        [siteId],
      );
      return new Map(rows.map((r) => [r.site_space_id, parsed(r.overrides)]));
    },
  };
}

function createRedirectStore(
  sql: Sql,
): Omit<SiteSettingsStore, keyof ReturnType<typeof createCustomizationStore> | 'customHostname' | 'setCustomHostname' | 'deleteCustomHostname'> {
  const one = async (where: string, params: SqlParam[]) =>
    (await sql.query<RedirectRow>(`SELECT ${REDIRECT_COLUMNS} FROM site_redirects WHERE ${where}`, params)).map(redirectFromRow)[0] ?? null;
  return {
    async listRedirects(siteId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('site-redirects', options.page) ?? 0;
      const where = ['site_id = $1', 'draft = $2'];
      const params: SqlParam[] = [siteId, options.draft ?? false];
      if (options.search) {
        params.push(`%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where.push(`source ILIKE $${params.length}`);
      }
      const total = await countRows(sql, `site_redirects WHERE ${where.join(' AND ')}`, params);
      const rows = await sql.query<RedirectRow>(
        `SELECT ${REDIRECT_COLUMNS} FROM site_redirects WHERE ${where.join(' AND ')} AND seq > $${params.length + 1} ORDER BY seq LIMIT $${params.length + 2}`,
        [...params, after, limit + 1],
      );
      return { ...paginate('site-redirects', rows, limit, redirectFromRow), total };
    },
    redirect: (siteId, id) => one('site_id = $1 AND id = $2', [siteId, id]),
    redirectBySource: (siteId, source, draft) => one('site_id = $1 AND source = $2 AND draft = $3', [siteId, source, draft]),
    async liveRedirects(siteId, limit) {
      const rows = await sql.query<RedirectRow>(`SELECT ${REDIRECT_COLUMNS} FROM site_redirects WHERE site_id = $1 AND NOT draft ORDER BY seq LIMIT $2`, [
        siteId,
        limit,
      ]);
      return rows.map(redirectFromRow);
    },
    async createRedirect(siteId, input) {
      const rows = await taken(input.source, () =>
        sql.query<RedirectRow>(
          `INSERT INTO site_redirects (id, site_id, source, draft, capture_wildcard, permanent, destination) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING ${REDIRECT_COLUMNS}`,
          [newId(), siteId, input.source, input.draft, input.captureWildcard, input.permanent, json(input.destination)],
        ),
      );
      return redirectFromRow(rows[0]!);
    },
    async updateRedirect(siteId, id, patch) {
      const rows = await taken(patch.source ?? '', () =>
        sql.query<RedirectRow>(
          `UPDATE site_redirects SET source = COALESCE($3, source), draft = COALESCE($4, draft), capture_wildcard = COALESCE($5, capture_wildcard),
             permanent = COALESCE($6, permanent), destination = COALESCE($7::jsonb, destination), updated_at = now()
           WHERE site_id = $1 AND id = $2 RETURNING ${REDIRECT_COLUMNS}`,
          [siteId, id, patch.source ?? null, patch.draft ?? null, patch.captureWildcard ?? null, patch.permanent ?? null, json(patch.destination)],
        ),
      );
      if (!rows[0]) throw new NotFoundError('site redirect', id);
      return redirectFromRow(rows[0]);
    },
    async deleteRedirect(siteId, id) {
      const rows = await sql.query<{ id: string }>('DELETE FROM site_redirects WHERE site_id = $1 AND id = $2 RETURNING id', [siteId, id]);
      return rows.length > 0;
    },
  };
}

interface HostnameRow {
  hostname: string;
  organization_id: string;
  site_id: string;
  created_at: unknown;
}

const hostnameFromRow = (row: HostnameRow): CustomHostnameRecord => ({
  hostname: row.hostname,
  organizationId: row.organization_id,
  siteId: row.site_id,
  createdAt: toDate(row.created_at),
});

function createHostnameStore(sql: Sql): Pick<SiteSettingsStore, 'customHostname' | 'setCustomHostname' | 'deleteCustomHostname'> {
  return {
    async customHostname(hostname) {
      const rows = await sql.query<HostnameRow>('SELECT hostname, organization_id, site_id, created_at FROM custom_hostnames WHERE hostname = $1', [hostname]);
      return rows[0] ? hostnameFromRow(rows[0]) : null;
    },
    async setCustomHostname(organizationId, hostname, siteId) {
      return sql.transaction(async (tx) => {
        const held = await tx.query<HostnameRow>('SELECT hostname, organization_id, site_id, created_at FROM custom_hostnames WHERE hostname = $1 FOR UPDATE', [
          hostname,
        ]);
        if (held[0] && held[0].organization_id !== organizationId) throw new ConflictError(`the hostname ${hostname} is not available`, { hostname });
        const rows = await tx.query<HostnameRow>(
          `INSERT INTO custom_hostnames (hostname, organization_id, site_id) VALUES ($1, $2, $3)
           ON CONFLICT (hostname) DO UPDATE SET site_id = EXCLUDED.site_id WHERE custom_hostnames.organization_id = EXCLUDED.organization_id
           RETURNING hostname, organization_id, site_id, created_at`,
          [hostname, organizationId, siteId],
        );
        if (!rows[0]) throw new ConflictError(`the hostname ${hostname} is not available`, { hostname });
        return { record: hostnameFromRow(rows[0]), created: !held[0] };
      });
    },
    async deleteCustomHostname(organizationId, hostname) {
      const rows = await sql.query<{ hostname: string }>('DELETE FROM custom_hostnames WHERE hostname = $1 AND organization_id = $2 RETURNING hostname', [
        hostname,
        organizationId,
      ]);
      return rows.length > 0;
    },
  };
}

export function createSiteSettingsStore(sql: Sql): SiteSettingsStore {
  return { ...createCustomizationStore(sql), ...createRedirectStore(sql), ...createHostnameStore(sql) };
}
