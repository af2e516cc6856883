/**
 * The rows of the secret vault (`vault_secrets`, migrations 002 and 007): sealed bytes with the space they were given
 * for and an expiry. Sealing and opening is src/vault/'s business; the store never sees a secret in clear.
 */
import { NotFoundError } from '../errors.js';
import { sqlState } from './sql-helpers.js';
import type { Sql, VaultStore } from './types/index.js';

export function createVaultStore(sql: Sql): VaultStore {
  return {
    async insert(entry) {
      try {
        await sql.query('INSERT INTO vault_secrets (id, space_id, sealed, expires_at) VALUES ($1, $2, $3, $4)', [
          entry.id,
          entry.spaceId,
          entry.sealed,
          entry.expiresAt,
        ]);
      } catch (err) {
        if (sqlState(err) === '23503') throw new NotFoundError('space', entry.spaceId);
        throw err;
      }
    },
    async sealed(id, spaceId) {
      const rows = await sql.query<{ sealed: Uint8Array }>('SELECT sealed FROM vault_secrets WHERE id = $1 AND space_id = $2 AND expires_at > now()', [
        id,
        spaceId,
      ]);
      return rows[0] ? new Uint8Array(rows[0].sealed) : null;
    },
    async delete(id) {
      await sql.query('DELETE FROM vault_secrets WHERE id = $1', [id]);
    },
    async deleteExpired() {
      const rows = await sql.query<{ id: string }>('DELETE FROM vault_secrets WHERE expires_at <= now() RETURNING id');
      return rows.length;
    },
  };
}
