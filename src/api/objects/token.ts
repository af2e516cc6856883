import type { TokenRecord } from '../../store/index.js';
import { iso } from './urls.js';

/** Folio's API token object (a Folio addition, not in GitBook's API): never carries the secret or its hash. */
export function tokenObject(token: TokenRecord, now = new Date()) {
  const status = token.revokedAt ? 'revoked' : token.expiresAt && token.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
  return {
    object: 'api-token' as const,
    id: token.id,
    label: token.label,
    scope: token.scope,
    status,
    createdAt: iso(token.createdAt)!,
    expiresAt: iso(token.expiresAt) ?? null,
    revokedAt: iso(token.revokedAt) ?? null,
    lastUsedAt: iso(token.lastUsedAt) ?? null,
    /** The member a personal token acts for; null for the organization's service token. */
    user: token.userId,
  };
}
