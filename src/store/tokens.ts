import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { sha256Hex } from './hash.js';
import { newId } from './ids.js';
import { sqlState, toDate, toDateOrNull } from './sql-helpers.js';
import type { Sql, TokenRecord, TokenStore } from './types.js';

/** Generated tokens: `folio_` + 43 base64url characters (256 bits). */
export function generateToken(): string {
  return `folio_${randomBytes(32).toString('base64url')}`;
}

function checkToken(token: unknown): string {
  if (typeof token !== 'string' || token.length < 8 || token.length > 512 || /\s/.test(token)) {
    throw new ValidationError('a token is 8-512 characters without whitespace');
  }
  return token;
}

interface TokenRow {
  id: string;
  organization_id: string;
  label: string | null;
  created_at: unknown;
  revoked_at: unknown;
}

function tokenFromRow(row: TokenRow): TokenRecord {
  return { id: row.id, organizationId: row.organization_id, label: row.label, createdAt: toDate(row.created_at), revokedAt: toDateOrNull(row.revoked_at) };
}

/** API tokens: only their sha256 is stored; the clear token is returned once, by `create`. */
export function createTokenStore(sql: Sql): TokenStore {
  return {
    async create(organizationId, options = {}) {
      const token = options.token === undefined ? generateToken() : checkToken(options.token);
      const label = options.label ?? null;
      if (label !== null && (typeof label !== 'string' || label.length > 200)) throw new ValidationError('token label must be a string of at most 200 characters');
      const hash = sha256Hex(token);
      return sql.transaction(async (tx) => {
        const org = await tx.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
        if (org.length === 0) throw new NotFoundError('organization', String(organizationId));
        const id = newId();
        try {
          const inserted = await tx.query<{ id: string }>(
            'INSERT INTO api_tokens (id, organization_id, token_sha256, label) VALUES ($1, $2, $3, $4) ON CONFLICT (token_sha256) DO NOTHING RETURNING id',
            [id, organizationId, hash, label],
          );
          if (inserted.length > 0) return { id, token };
        } catch (err) {
          if (sqlState(err) === '23503') throw new NotFoundError('organization', String(organizationId));
          throw err;
        }
        const existing = await tx.query<{ id: string; organization_id: string; revoked_at: unknown }>('SELECT id, organization_id, revoked_at FROM api_tokens WHERE token_sha256 = $1', [hash]);
        const row = existing[0]!;
        if (row.organization_id !== organizationId) throw new ConflictError('this token already belongs to another organization');
        if (row.revoked_at !== null) throw new ConflictError('this token was revoked');
        return { id: row.id, token };
      });
    },
    async verify(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 512) return null;
      const rows = await sql.query<{ id: string; organization_id: string }>('SELECT id, organization_id FROM api_tokens WHERE token_sha256 = $1 AND revoked_at IS NULL', [sha256Hex(token)]);
      return rows[0] ? { orgId: rows[0].organization_id, tokenId: rows[0].id } : null;
    },
    async count(organizationId) {
      const rows =
        organizationId === undefined
          ? await sql.query<{ n: string | number }>('SELECT count(*) AS n FROM api_tokens WHERE revoked_at IS NULL')
          : await sql.query<{ n: string | number }>('SELECT count(*) AS n FROM api_tokens WHERE revoked_at IS NULL AND organization_id = $1', [organizationId]);
      return Number(rows[0]!.n);
    },
    async list(organizationId) {
      const rows = await sql.query<TokenRow>('SELECT id, organization_id, label, created_at, revoked_at FROM api_tokens WHERE organization_id = $1 ORDER BY created_at, id', [organizationId]);
      return rows.map(tokenFromRow);
    },
    async revoke(tokenId) {
      await sql.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [tokenId]);
    },
  };
}
