import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { sha256Hex } from './hash.js';
import { newId } from './ids.js';
import { sqlState, toDate, toDateOrNull } from './sql-helpers.js';
import type { Sql, TokenRecord, TokenScope, TokenStore } from './types/index.js';

/** Generated tokens: `folio_` + 43 base64url characters (256 bits). */
export function generateToken(): string {
  return `folio_${randomBytes(32).toString('base64url')}`;
}

/** `last_used_at` is written at most once per this window, so that reads do not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

function checkToken(token: unknown): string {
  if (typeof token !== 'string' || token.length < 8 || token.length > 512 || /\s/.test(token)) {
    throw new ValidationError('a token is 8-512 characters without whitespace');
  }
  return token;
}

function checkScope(scope: unknown): TokenScope {
  if (scope !== 'read' && scope !== 'write') throw new ValidationError('a token scope is "read" or "write"');
  return scope;
}

function checkExpiry(expiresAt: unknown): Date | null {
  if (expiresAt === null || expiresAt === undefined) return null;
  if (!(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime())) throw new ValidationError('a token expiry must be a valid date');
  if (expiresAt.getTime() <= Date.now()) throw new ValidationError('a token expiry must be in the future');
  return expiresAt;
}

const COLUMNS = 'id, organization_id, label, scope, created_at, expires_at, revoked_at, last_used_at, user_id';

interface TokenRow {
  id: string;
  organization_id: string;
  label: string | null;
  scope: string;
  created_at: unknown;
  expires_at: unknown;
  revoked_at: unknown;
  last_used_at: unknown;
  user_id: string | null;
}

function tokenFromRow(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    label: row.label,
    scope: row.scope === 'read' ? 'read' : 'write',
    createdAt: toDate(row.created_at),
    expiresAt: toDateOrNull(row.expires_at),
    revokedAt: toDateOrNull(row.revoked_at),
    lastUsedAt: toDateOrNull(row.last_used_at),
    userId: row.user_id,
  };
}

/** A personal token is issued for a member of the organization (not a disabled one). */
async function checkOrgAndMember(tx: Sql, organizationId: string, userId: string | null): Promise<void> {
  const org = await tx.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
  if (org.length === 0) throw new NotFoundError('organization', String(organizationId));
  if (userId === null) return;
  const member = await tx.query('SELECT 1 FROM organization_members WHERE organization_id = $1 AND user_id = $2 AND NOT disabled', [organizationId, userId]);
  if (member.length === 0) throw new NotFoundError('member', String(userId));
}

type CreatedToken = Awaited<ReturnType<TokenStore['create']>>;

interface NewToken {
  organizationId: string;
  token: string;
  hash: string;
  label: string | null;
  scope: TokenScope;
  expiresAt: Date | null;
  userId: string | null;
}

/** Inserts the token, or returns the same token already stored for the same owner (idempotent create). */
async function insertOrReuseToken(tx: Sql, t: NewToken): Promise<CreatedToken> {
  const id = newId();
  try {
    const inserted = await tx.query<TokenRow>(
      `INSERT INTO api_tokens (id, organization_id, token_sha256, label, scope, expires_at, user_id) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (token_sha256) DO NOTHING RETURNING ${COLUMNS}`,
      [id, t.organizationId, t.hash, t.label, t.scope, t.expiresAt, t.userId],
    );
    if (inserted.length > 0) return { id, token: t.token, record: tokenFromRow(inserted[0]!) };
  } catch (err) {
    if (sqlState(err) === '23503') throw new NotFoundError('organization', String(t.organizationId));
    throw err;
  }
  const existing = await tx.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE token_sha256 = $1`, [t.hash]);
  const row = existing[0]!;
  if (row.organization_id !== t.organizationId) throw new ConflictError('this token already belongs to another organization');
  if (row.revoked_at !== null) throw new ConflictError('this token was revoked');
  if (row.user_id !== t.userId) throw new ConflictError('this token already belongs to another user');
  return { id: row.id, token: t.token, record: tokenFromRow(row) };
}

async function createToken(sql: Sql, organizationId: string, options: Parameters<TokenStore['create']>[1] = {}): Promise<CreatedToken> {
  const token = options.token === undefined ? generateToken() : checkToken(options.token);
  const label = options.label ?? null;
  if (label !== null && (typeof label !== 'string' || label.length > 200)) throw new ValidationError('token label must be a string of at most 200 characters');
  const scope = checkScope(options.scope ?? 'write');
  const expiresAt = checkExpiry(options.expiresAt);
  const hash = sha256Hex(token);
  return sql.transaction(async (tx) => {
    const userId = options.userId ?? null;
    await checkOrgAndMember(tx, organizationId, userId);
    return insertOrReuseToken(tx, { organizationId, token, hash, label, scope, expiresAt, userId });
  });
}

/** API tokens: only their sha256 is stored; the clear token is returned once, by `create`. */
export function createTokenStore(sql: Sql): TokenStore {
  return {
    create: (organizationId, options) => createToken(sql, organizationId, options),
    async verify(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 512) return null;
      const rows = await sql.query<{ id: string; organization_id: string; scope: string; stale: boolean; user_id: string | null }>(
        `SELECT id, organization_id, scope, user_id, (last_used_at IS NULL OR last_used_at < now() - $2::int * interval '1 millisecond') AS stale
           FROM api_tokens WHERE token_sha256 = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [sha256Hex(token), LAST_USED_RESOLUTION_MS],
      );
      const row = rows[0];
      if (!row) return null;
      if (row.stale) await sql.query('UPDATE api_tokens SET last_used_at = now() WHERE id = $1', [row.id]);
      return { orgId: row.organization_id, tokenId: row.id, scope: row.scope === 'read' ? 'read' : 'write', userId: row.user_id };
    },
    async count(organizationId) {
      const valid = 'revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())';
      const rows =
        organizationId === undefined
          ? await sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM api_tokens WHERE ${valid}`)
          : await sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM api_tokens WHERE ${valid} AND organization_id = $1`, [organizationId]);
      return Number(rows[0]!.n);
    },
    async list(organizationId, options = {}) {
      const rows =
        options.userId === undefined
          ? await sql.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE organization_id = $1 ORDER BY created_at, id`, [organizationId])
          : await sql.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE organization_id = $1 AND user_id = $2 ORDER BY created_at, id`, [
              organizationId,
              options.userId,
            ]);
      return rows.map(tokenFromRow);
    },
    async get(organizationId, tokenId) {
      const rows = await sql.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE organization_id = $1 AND id = $2`, [organizationId, tokenId]);
      return rows[0] ? tokenFromRow(rows[0]) : null;
    },
    async revoke(organizationId, tokenId) {
      const rows = await sql.query<TokenRow>(
        `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [organizationId, tokenId],
      );
      if (!rows[0]) throw new NotFoundError('token', String(tokenId));
      return tokenFromRow(rows[0]);
    },
  };
}
