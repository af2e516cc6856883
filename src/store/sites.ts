import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { checkLimit, countRows, decodeCursor, paginate } from './cursor.js';
import { recordEvent } from './events.js';
import { newId } from './ids.js';
import { insertRows, json, sqlState, toDate } from './sql-helpers.js';
import type {
  PublicationFile,
  PublicationInput,
  PublicationRecord,
  ShareLinkRecord,
  SiteCreateInput,
  SitePublishState,
  SitePatch,
  SiteRecord,
  SiteSpaceRecord,
  SiteStore,
  SiteVisibility,
  Sql,
} from './types/index.js';

const SITE_COLUMNS =
  'id, seq, organization_id, title, type, visibility, basename, published, default_site_space_id, live_publication_id, publish_on_new_revision, publish_state, created_at, updated_at';
const VISIBILITIES: readonly SiteVisibility[] = ['public', 'unlisted', 'share-link', 'visitor-auth'];
const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'];
/** A basename is one URL path segment: `/sites/<basename>/…`. */
const BASENAME = /^[a-z0-9][a-z0-9-]{0,99}$/;
/** A site space path is one URL path segment too (the default site space is served at the site's root). */
const SITE_SPACE_PATH = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

interface SiteRow {
  id: string;
  seq: string | number;
  organization_id: string;
  title: string;
  type: string;
  visibility: string;
  basename: string;
  published: boolean;
  default_site_space_id: string | null;
  live_publication_id: string | null;
  publish_on_new_revision: boolean;
  publish_state: unknown;
  created_at: unknown;
  updated_at: unknown;
}

function siteFromRow(row: SiteRow): SiteRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    title: row.title,
    type: row.type,
    visibility: row.visibility as SiteVisibility,
    basename: row.basename,
    published: row.published,
    defaultSiteSpaceId: row.default_site_space_id,
    livePublicationId: row.live_publication_id,
    publishOnNewRevision: row.publish_on_new_revision,
    publishState: (typeof row.publish_state === 'string' ? JSON.parse(row.publish_state) : (row.publish_state ?? null)) as SitePublishState | null,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

const SITE_SPACE_COLUMNS = 'id, seq, site_id, space_id, path, section_id, created_at';

interface SiteSpaceRow {
  id: string;
  seq: string | number;
  site_id: string;
  space_id: string;
  path: string;
  section_id: string | null;
  created_at: unknown;
}

const siteSpaceFromRow = (row: SiteSpaceRow): SiteSpaceRecord => ({
  id: row.id,
  siteId: row.site_id,
  spaceId: row.space_id,
  path: row.path,
  sectionId: row.section_id,
  createdAt: toDate(row.created_at),
});

interface ShareLinkRow {
  id: string;
  seq: string | number;
  site_id: string;
  name: string;
  key: string;
  active: boolean;
  created_at: unknown;
}

const shareLinkFromRow = (row: ShareLinkRow): ShareLinkRecord => ({
  id: row.id,
  siteId: row.site_id,
  name: row.name,
  key: row.key,
  active: row.active,
  createdAt: toDate(row.created_at),
});

interface PublicationRow {
  id: string;
  site_id: string;
  request_key: string;
  structure: unknown;
  rendered: number;
  reused: number;
  created_at: unknown;
}

const publicationFromRow = (row: PublicationRow): PublicationRecord => ({
  id: row.id,
  siteId: row.site_id,
  requestKey: row.request_key,
  structure: (typeof row.structure === 'string' ? JSON.parse(row.structure) : row.structure) as PublicationRecord['structure'],
  rendered: Number(row.rendered),
  reused: Number(row.reused),
  createdAt: toDate(row.created_at),
});

export function checkSiteTitle(title: unknown): string {
  if (typeof title !== 'string' || title.trim().length < 2 || title.length > 128) throw new ValidationError('title must be a string of 2 to 128 characters');
  return title;
}

export function checkSiteVisibility(visibility: unknown): SiteVisibility {
  if (typeof visibility !== 'string' || !VISIBILITIES.includes(visibility as SiteVisibility))
    throw new ValidationError(`visibility must be one of ${VISIBILITIES.join(', ')}`);
  if (visibility === 'visitor-auth') throw new ValidationError('visibility visitor-auth is not supported by Folio (no visitor authentication backend)');
  return visibility as SiteVisibility;
}

export function checkBasename(basename: unknown): string {
  if (typeof basename !== 'string' || !BASENAME.test(basename))
    throw new ValidationError('basename must be 1 to 100 lowercase letters, digits or dashes, starting with a letter or digit');
  return basename;
}

export function checkSiteSpacePath(path: unknown): string {
  if (typeof path !== 'string' || !SITE_SPACE_PATH.test(path) || path === '.' || path === '..')
    throw new ValidationError('path must be 1 to 100 letters, digits, dots, dashes or underscores, starting with a letter or digit');
  return path;
}

/** A basename derived from a title: lowercase ASCII words joined by dashes. */
export function basenameFromTitle(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return base === '' ? 'site' : base;
}

/** Site space paths and section paths share one namespace per site (both are served as the site's first segment). */
export async function siteSpacePathFree(tx: Sql, siteId: string, base: string): Promise<string> {
  const rows = await tx.query<{ path: string }>('SELECT path FROM site_spaces WHERE site_id = $1 UNION ALL SELECT path FROM site_sections WHERE site_id = $1', [
    siteId,
  ]);
  const taken = new Set(rows.map((r) => r.path.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`.toLowerCase())) return `${base}-${n}`;
}

/** The section a new site space goes to: the one named (of this site), else the site's default section, else none. */
async function sectionOfNewSiteSpace(tx: Sql, siteId: string, sectionId: string | undefined): Promise<string | null> {
  const rows = await tx.query<{ id: string }>(
    sectionId !== undefined ? 'SELECT id FROM site_sections WHERE site_id = $1 AND id = $2' : 'SELECT id FROM site_sections WHERE site_id = $1 AND is_default',
    sectionId !== undefined ? [siteId, sectionId] : [siteId],
  );
  if (sectionId !== undefined && rows.length === 0) throw new NotFoundError('site section', sectionId);
  return rows[0]?.id ?? null;
}

export async function addSiteSpace(tx: Sql, site: SiteRecord, input: { spaceId: string; path?: string; sectionId?: string }): Promise<SiteSpaceRecord> {
  const space = await tx.query<{ id: string; title: string | null }>(
    'SELECT id, title FROM spaces WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL',
    [input.spaceId, site.organizationId],
  );
  if (space.length === 0) throw new NotFoundError('space', input.spaceId);
  const sectionId = await sectionOfNewSiteSpace(tx, site.id, input.sectionId);
  const path = input.path !== undefined ? checkSiteSpacePath(input.path) : await siteSpacePathFree(tx, site.id, basenameFromTitle(space[0]!.title ?? 'space'));
  if ((await tx.query('SELECT 1 FROM site_sections WHERE site_id = $1 AND lower(path) = lower($2)', [site.id, path])).length > 0)
    throw new ConflictError(`the site already has a section at path ${path}`, { path });
  try {
    const rows = await tx.query<SiteSpaceRow>(
      `INSERT INTO site_spaces (id, site_id, space_id, path, section_id) VALUES ($1, $2, $3, $4, $5) RETURNING ${SITE_SPACE_COLUMNS}`,
      [newId(), site.id, input.spaceId, path, sectionId],
    );
    const created = siteSpaceFromRow(rows[0]!);
    if (!site.defaultSiteSpaceId) {
      await tx.query('UPDATE sites SET default_site_space_id = $2, updated_at = now() WHERE id = $1 AND default_site_space_id IS NULL', [site.id, created.id]);
    }
    return created;
  } catch (err) {
    if (sqlState(err) === '23505') throw new ConflictError(`the site already has a site space at path ${path}`, { path });
    throw err;
  }
}

async function getSite(tx: Sql, organizationId: string, id: string): Promise<SiteRecord | null> {
  const rows = await tx.query<SiteRow>(`SELECT ${SITE_COLUMNS} FROM sites WHERE id = $1 AND organization_id = $2`, [id, organizationId]);
  return rows[0] ? siteFromRow(rows[0]) : null;
}

export async function requireSite(tx: Sql, organizationId: string, id: string): Promise<SiteRecord> {
  const site = await getSite(tx, organizationId, id);
  if (!site) throw new NotFoundError('site', id);
  return site;
}

/** The first free basename of the form `base`, `base-2`, `base-3`, ... */
async function freeBasename(tx: Sql, base: string): Promise<string> {
  const taken = new Set((await tx.query<{ basename: string }>('SELECT basename FROM sites WHERE basename LIKE $1', [`${base}%`])).map((r) => r.basename));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

async function createSite(sql: Sql, organizationId: string, input: SiteCreateInput): Promise<SiteRecord> {
  const title = checkSiteTitle(input.title);
  const visibility = input.visibility === undefined ? 'public' : checkSiteVisibility(input.visibility);
  const type = input.type ?? 'basic';
  if (!SITE_TYPES.includes(type)) throw new ValidationError(`type must be one of ${SITE_TYPES.join(', ')}`);
  return sql.transaction(async (tx) => {
    const org = await tx.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
    if (org.length === 0) throw new NotFoundError('organization', organizationId);
    const basename = input.basename !== undefined ? checkBasename(input.basename) : await freeBasename(tx, basenameFromTitle(title));
    let row: SiteRow;
    try {
      row = (
        await tx.query<SiteRow>(
          `INSERT INTO sites (id, organization_id, title, type, visibility, basename) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${SITE_COLUMNS}`,
          [newId(), organizationId, title, type, visibility, basename],
        )
      )[0]!;
    } catch (err) {
      if (sqlState(err) === '23505') throw new ConflictError(`the basename ${basename} is taken`, { basename });
      throw err;
    }
    let site = siteFromRow(row);
    for (const spaceId of input.spaces ?? []) {
      await addSiteSpace(tx, site, { spaceId });
      site = (await getSite(tx, organizationId, site.id))!;
    }
    return site;
  });
}

async function updateSite(sql: Sql, organizationId: string, id: string, patch: SitePatch): Promise<SiteRecord> {
  return sql.transaction(async (tx) => {
    await requireSite(tx, organizationId, id);
    const sets: string[] = [];
    const params: (string | boolean | null)[] = [id];
    const set = (column: string, value: string | boolean | null) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (patch.title !== undefined) set('title', checkSiteTitle(patch.title));
    if (patch.visibility !== undefined) set('visibility', checkSiteVisibility(patch.visibility));
    if (patch.basename !== undefined) set('basename', checkBasename(patch.basename));
    if (patch.published !== undefined) set('published', patch.published);
    if (patch.publishOnNewRevision !== undefined) set('publish_on_new_revision', patch.publishOnNewRevision);
    if (patch.defaultSiteSpaceId !== undefined) {
      const ss = await tx.query('SELECT 1 FROM site_spaces WHERE id = $1 AND site_id = $2', [patch.defaultSiteSpaceId, id]);
      if (ss.length === 0) throw new ValidationError(`defaultSiteSpace ${patch.defaultSiteSpaceId} is not a site space of this site`);
      set('default_site_space_id', patch.defaultSiteSpaceId);
    }
    if (sets.length > 0) {
      try {
        await tx.query(`UPDATE sites SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
      } catch (err) {
        if (sqlState(err) === '23505') throw new ConflictError(`the basename ${String(patch.basename)} is taken`);
        throw err;
      }
    }
    return requireSite(tx, organizationId, id);
  });
}

/** Sites themselves: create, read, list, update, delete, unpublish. */
function createSiteRecordStore(sql: Sql): Pick<SiteStore, 'create' | 'get' | 'getByBasename' | 'list' | 'update' | 'delete' | 'unpublish'> {
  return {
    create: (organizationId, input) => createSite(sql, organizationId, input),

    get: (organizationId, id) => getSite(sql, organizationId, id),

    async getByBasename(basename) {
      const rows = await sql.query<SiteRow>(`SELECT ${SITE_COLUMNS} FROM sites WHERE basename = $1`, [basename]);
      return rows[0] ? siteFromRow(rows[0]) : null;
    },

    async list(organizationId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('sites', options.page) ?? 0;
      const params: (string | number | boolean)[] = [organizationId];
      let filter = '';
      if (options.published !== undefined) {
        params.push(options.published);
        filter += ` AND published = $${params.length}`;
      }
      if (options.spaceId !== undefined) {
        params.push(options.spaceId);
        filter += ` AND EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = sites.id AND ss.space_id = $${params.length})`;
      }
      if (options.title !== undefined) {
        params.push(`%${options.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        filter += ` AND title ILIKE $${params.length}`;
      }
      const total = await countRows(sql, `sites WHERE organization_id = $1${filter}`, params);
      const n = params.length;
      const rows = await sql.query<SiteRow>(
        `SELECT ${SITE_COLUMNS} FROM sites WHERE organization_id = $1${filter} AND seq > $${n + 1} ORDER BY seq LIMIT $${n + 2}`,
        [...params, after, limit + 1],
      );
      return { ...paginate('sites', rows, limit, siteFromRow), total };
    },

    update: (organizationId, id, patch) => updateSite(sql, organizationId, id, patch),

    async delete(organizationId, id) {
      const rows = await sql.query('DELETE FROM sites WHERE id = $1 AND organization_id = $2 RETURNING id', [id, organizationId]);
      return rows.length > 0;
    },

    async unpublish(organizationId, siteId) {
      const rows = await sql.query('UPDATE sites SET published = false, updated_at = now() WHERE id = $1 AND organization_id = $2 RETURNING id', [
        siteId,
        organizationId,
      ]);
      if (rows.length === 0) throw new NotFoundError('site', siteId);
      return (await getSite(sql, organizationId, siteId))!;
    },
  };
}

/** The spaces a site shows, each at a path. */
function createSiteSpaceStore(sql: Sql): Pick<SiteStore, 'countSiteSpaces' | 'listSiteSpaces' | 'addSiteSpace' | 'updateSiteSpace' | 'deleteSiteSpace'> {
  return {
    async countSiteSpaces(siteId) {
      const rows = await sql.query<{ n: string | number }>('SELECT count(*) AS n FROM site_spaces WHERE site_id = $1', [siteId]);
      return Number(rows[0]?.n ?? 0);
    },

    async listSiteSpaces(siteId) {
      const rows = await sql.query<SiteSpaceRow>(`SELECT ${SITE_SPACE_COLUMNS} FROM site_spaces WHERE site_id = $1 ORDER BY seq`, [siteId]);
      return rows.map(siteSpaceFromRow);
    },

    async addSiteSpace(organizationId, siteId, input) {
      return sql.transaction(async (tx) => addSiteSpace(tx, await requireSite(tx, organizationId, siteId), input));
    },

    async updateSiteSpace(organizationId, siteId, siteSpaceId, patch) {
      return sql.transaction(async (tx) => {
        const site = await requireSite(tx, organizationId, siteId);
        const existing = await tx.query<SiteSpaceRow>(`SELECT ${SITE_SPACE_COLUMNS} FROM site_spaces WHERE id = $1 AND site_id = $2`, [siteSpaceId, site.id]);
        if (existing.length === 0) throw new NotFoundError('site space', siteSpaceId);
        if (patch.spaceId !== undefined) {
          const space = await tx.query('SELECT 1 FROM spaces WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL', [patch.spaceId, organizationId]);
          if (space.length === 0) throw new NotFoundError('space', patch.spaceId);
        }
        const path = patch.path !== undefined ? checkSiteSpacePath(patch.path) : existing[0]!.path;
        if (
          patch.path !== undefined &&
          (await tx.query('SELECT 1 FROM site_sections WHERE site_id = $1 AND lower(path) = lower($2)', [site.id, path])).length > 0
        )
          throw new ConflictError(`the site already has a section at path ${path}`, { path });
        try {
          const rows = await tx.query<SiteSpaceRow>(
            `UPDATE site_spaces SET path = $3, space_id = COALESCE($4, space_id) WHERE id = $1 AND site_id = $2 RETURNING ${SITE_SPACE_COLUMNS}`,
            [siteSpaceId, site.id, path, patch.spaceId ?? null],
          );
          return siteSpaceFromRow(rows[0]!);
        } catch (err) {
          if (sqlState(err) === '23505') throw new ConflictError(`the site already has a site space at path ${path}`, { path });
          throw err;
        }
      });
    },

    async deleteSiteSpace(organizationId, siteId, siteSpaceId) {
      return sql.transaction(async (tx) => {
        const site = await requireSite(tx, organizationId, siteId);
        const rows = await tx.query('DELETE FROM site_spaces WHERE id = $1 AND site_id = $2 RETURNING id', [siteSpaceId, site.id]);
        if (rows.length > 0 && site.defaultSiteSpaceId === siteSpaceId) {
          await tx.query(
            // The next one of the default section first, when the site has sections (the section's default falls back to it too).
            `UPDATE sites SET default_site_space_id = (SELECT id FROM site_spaces WHERE site_id = $1
               ORDER BY (section_id IS NOT DISTINCT FROM (SELECT id FROM site_sections WHERE site_id = $1 AND is_default)) DESC, seq LIMIT 1),
             updated_at = now() WHERE id = $1`,
            [site.id],
          );
        }
        return rows.length > 0;
      });
    },
  };
}

/** Share links: secret keys that open a share-link site. */
function createShareLinkStore(sql: Sql): Pick<SiteStore, 'listShareLinks' | 'createShareLink' | 'updateShareLink' | 'deleteShareLink' | 'shareLinkByKey'> {
  return {
    async listShareLinks(siteId, options) {
      const limit = checkLimit(options);
      const after = decodeCursor('share-links', options.page) ?? 0;
      const rows = await sql.query<ShareLinkRow>(
        'SELECT id, seq, site_id, name, key, active, created_at FROM site_share_links WHERE site_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [siteId, after, limit + 1],
      );
      const total = await countRows(sql, 'site_share_links WHERE site_id = $1', [siteId]);
      return { ...paginate('share-links', rows, limit, shareLinkFromRow), total };
    },

    async createShareLink(siteId, name) {
      if (typeof name !== 'string' || name.length > 50) throw new ValidationError('name must be a string of at most 50 characters');
      const rows = await sql.query<ShareLinkRow>(
        'INSERT INTO site_share_links (id, site_id, name, key) VALUES ($1, $2, $3, $4) RETURNING id, seq, site_id, name, key, active, created_at',
        [newId(), siteId, name, randomBytes(24).toString('base64url')],
      );
      return shareLinkFromRow(rows[0]!);
    },

    async updateShareLink(siteId, id, patch) {
      if (patch.name !== undefined && (typeof patch.name !== 'string' || patch.name.length > 50))
        throw new ValidationError('name must be a string of at most 50 characters');
      const rows = await sql.query<ShareLinkRow>(
        'UPDATE site_share_links SET name = COALESCE($3, name), active = COALESCE($4, active) WHERE id = $1 AND site_id = $2 RETURNING id, seq, site_id, name, key, active, created_at',
        [id, siteId, patch.name ?? null, patch.active ?? null],
      );
      if (rows.length === 0) throw new NotFoundError('share link', id);
      return shareLinkFromRow(rows[0]!);
    },

    async deleteShareLink(siteId, id) {
      const rows = await sql.query('DELETE FROM site_share_links WHERE id = $1 AND site_id = $2 RETURNING id', [id, siteId]);
      return rows.length > 0;
    },

    async shareLinkByKey(siteId, key) {
      const rows = await sql.query<ShareLinkRow>(
        'SELECT id, seq, site_id, name, key, active, created_at FROM site_share_links WHERE site_id = $1 AND key = $2',
        [siteId, key],
      );
      return rows[0] ? shareLinkFromRow(rows[0]) : null;
    },
  };
}

/** Same deps, whatever the order of their keys (jsonb keeps its own). */
export function sameDeps(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const x = Object.entries(a ?? {});
  return x.length === Object.keys(b ?? {}).length && x.every(([k, v]) => b?.[k] === v);
}

/**
 * The rows that store `files` against `base`: the files whose blob, type, key or deps differ, and a row without a
 * blob for each path of the base that `files` drops.
 */
function filesAgainst(files: PublicationFile[], base: PublicationFile[]): Array<Omit<PublicationFile, 'hash'> & { hash: string | null }> {
  const before = new Map(base.map((f) => [f.path, f]));
  const out: Array<Omit<PublicationFile, 'hash'> & { hash: string | null }> = [];
  const paths = new Set<string>();
  for (const f of files) {
    paths.add(f.path);
    const b = before.get(f.path);
    const same = b && b.hash === f.hash && b.contentType === f.contentType && b.inputKey === f.inputKey && sameDeps(b.deps, f.deps);
    if (!same) out.push(f);
  }
  for (const b of base) if (!paths.has(b.path)) out.push({ path: b.path, hash: null, contentType: '', inputKey: '' });
  return out;
}

/** A publication is stored against its base while the files that differ are at most this share of the site (or 64). */
const LAYER_MAX_SHARE = 0.25;

async function createPublication(sql: Sql, input: PublicationInput): Promise<{ publication: PublicationRecord; created: boolean; against: string | null }> {
  return sql.transaction(async (tx) => {
    const existing = await tx.query<PublicationRow>(
      'SELECT id, site_id, request_key, structure, rendered, reused, created_at FROM site_publications WHERE site_id = $1 AND request_key = $2',
      [input.siteId, input.requestKey],
    );
    if (existing[0]) return { publication: publicationFromRow(existing[0]), created: false, against: null };
    const layer = input.base ? filesAgainst(input.files, input.base.files) : null;
    const against = layer !== null && layer.length <= Math.max(64, input.files.length * LAYER_MAX_SHARE) ? input.base!.publicationId : null;
    const rows = await tx.query<PublicationRow>(
      'INSERT INTO site_publications (id, site_id, request_key, structure, rendered, reused, base_publication_id) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7) RETURNING id, site_id, request_key, structure, rendered, reused, created_at',
      [newId(), input.siteId, input.requestKey, json(input.structure), input.rendered, input.reused, against],
    );
    const publication = publicationFromRow(rows[0]!);
    await insertRows(
      tx,
      'site_publication_files',
      ['publication_id', 'path', 'blob_hash', 'content_type', 'input_key', 'deps'],
      (against !== null ? layer! : input.files).map((f) => [publication.id, f.path, f.hash, f.contentType, f.inputKey, json(f.deps ?? {})]),
      { casts: [undefined, undefined, undefined, undefined, undefined, 'jsonb'] },
    );
    return { publication, created: true, against };
  });
}

async function goLive(sql: Sql, siteId: string, publicationId: string, options: { keep?: number; warningCount?: number }): Promise<void> {
  const keep = options.keep ?? 3;
  await sql.transaction(async (tx) => {
    const before = await tx.query<{ live_publication_id: string | null }>('SELECT live_publication_id FROM sites WHERE id = $1 FOR UPDATE', [siteId]);
    const rows = await tx.query<{ organization_id: string }>(
      'UPDATE sites SET live_publication_id = $2, updated_at = now() WHERE id = $1 RETURNING organization_id',
      [siteId, publicationId],
    );
    if (rows.length === 0) throw new NotFoundError('site', siteId);
    if (before[0]?.live_publication_id !== publicationId)
      await recordEvent(tx, {
        organizationId: rows[0]!.organization_id,
        type: 'site_published',
        stream: `site:${siteId}`,
        siteId,
        payload: { siteId, publicationId, ...(options.warningCount !== undefined ? { warnings: options.warningCount } : {}) },
      });
    // Older publications go, but the last few stay so that a reader that resolved one a moment ago still finds its files;
    // so does a publication that another one is stored against (its base; it goes with the next switch after them).
    await tx.query(
      `DELETE FROM site_publications p WHERE site_id = $1 AND id <> $2 AND seq < (SELECT min(seq) FROM (SELECT seq FROM site_publications WHERE site_id = $1 ORDER BY seq DESC LIMIT $3) AS newest)
         AND NOT EXISTS (SELECT 1 FROM site_publications l WHERE l.base_publication_id = p.id)`,
      [siteId, publicationId, keep],
    );
  });
}

/** Publications: the immutable file sets a publish run produced, which one is live, and the publish state. */
function createPublicationStore(
  sql: Sql,
): Pick<
  SiteStore,
  'createPublication' | 'goLive' | 'setPublishState' | 'publishingOnNewRevision' | 'publication' | 'publicationFiles' | 'publicationLayers' | 'publicationFile'
> {
  return {
    createPublication: (input) => createPublication(sql, input),

    goLive: (siteId, publicationId, options = {}) => goLive(sql, siteId, publicationId, options),

    async setPublishState(siteId, state) {
      await sql.query('UPDATE sites SET publish_state = $2::jsonb WHERE id = $1', [siteId, json(state)]);
    },

    async publishingOnNewRevision(spaceId) {
      const rows = await sql.query<{ id: string; organization_id: string }>(
        `SELECT DISTINCT s.id, s.organization_id FROM sites s JOIN site_spaces ss ON ss.site_id = s.id
         WHERE ss.space_id = $1 AND s.publish_on_new_revision AND s.published ORDER BY s.id`,
        [spaceId],
      );
      return rows.map((r) => ({ id: r.id, organizationId: r.organization_id }));
    },

    async publication(siteId, publicationId) {
      const rows = await sql.query<PublicationRow>(
        'SELECT id, site_id, request_key, structure, rendered, reused, created_at FROM site_publications WHERE id = $1 AND site_id = $2',
        [publicationId, siteId],
      );
      return rows[0] ? publicationFromRow(rows[0]) : null;
    },

    publicationFiles: async (publicationId) => (await publicationLayerRows(sql, publicationId)).files,

    async publicationLayers(publicationId) {
      const { files, baseId, baseFiles } = await publicationLayerRows(sql, publicationId);
      return { files, base: { publicationId: baseId ?? publicationId, files: baseId === null ? files : baseFiles } };
    },

    async publicationFile(publicationId, path) {
      // The publication's own row over its base's; a row without a blob is a path the publication dropped.
      const rows = await sql.query<{ blob_hash: string | null; content_type: string }>(
        `SELECT f.blob_hash, f.content_type FROM site_publications p JOIN site_publication_files f
           ON f.path = $2 AND (f.publication_id = p.id OR f.publication_id = p.base_publication_id)
         WHERE p.id = $1 ORDER BY f.publication_id = p.id DESC LIMIT 1`,
        [publicationId, path],
      );
      return rows[0]?.blob_hash ? { hash: rows[0].blob_hash, contentType: rows[0].content_type } : null;
    },
  };
}

type PublicationFileRow = { own: boolean; path: string; blob_hash: string | null; content_type: string; input_key: string; deps: unknown };

const fileFromRow = (r: PublicationFileRow & { blob_hash: string }): PublicationFile => ({
  path: r.path,
  hash: r.blob_hash,
  contentType: r.content_type,
  inputKey: r.input_key,
  deps: (typeof r.deps === 'string' ? JSON.parse(r.deps) : r.deps) as Record<string, string>,
});

/** A publication's files by path (its own rows over its base's, dropped paths left out), its base and the base's files. */
async function publicationLayerRows(
  sql: Sql,
  publicationId: string,
): Promise<{ files: PublicationFile[]; baseId: string | null; baseFiles: PublicationFile[] }> {
  const base = await sql.query<{ base_publication_id: string | null }>('SELECT base_publication_id FROM site_publications WHERE id = $1', [publicationId]);
  const baseId = base[0]?.base_publication_id ?? null;
  const rows = await sql.query<PublicationFileRow>(
    'SELECT publication_id = $1 AS own, path, blob_hash, content_type, input_key, deps FROM site_publication_files WHERE publication_id = $1 OR publication_id = $2 ORDER BY path',
    [publicationId, baseId ?? publicationId],
  );
  const byPath = new Map<string, PublicationFileRow>();
  const baseFiles: PublicationFile[] = [];
  for (const r of rows) {
    if (!r.own && r.blob_hash !== null) baseFiles.push(fileFromRow(r as PublicationFileRow & { blob_hash: string }));
    if (r.own || !byPath.has(r.path)) byPath.set(r.path, r);
  }
  const files = [...byPath.values()].filter((r) => r.blob_hash !== null).map((r) => fileFromRow(r as PublicationFileRow & { blob_hash: string }));
  return { files, baseId, baseFiles };
}

export function createSiteStore(sql: Sql): SiteStore {
  return {
    ...createSiteRecordStore(sql),
    ...createSiteSpaceStore(sql),
    ...createShareLinkStore(sql),
    ...createPublicationStore(sql),
  };
}
