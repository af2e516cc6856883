import type { PageOptions, Paginated } from './common.js';

export interface OrganizationRecord {
  id: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
}

/** `read`: GET/HEAD only; `write`: everything in its organization. */
export type TokenScope = 'read' | 'write';

/** An API token as listed: never its secret (only its sha256 is stored). */
export interface TokenRecord {
  id: string;
  organizationId: string;
  label: string | null;
  scope: TokenScope;
  createdAt: Date;
  /** null: never expires. */
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Updated at most once a minute; null when never used. */
  lastUsedAt: Date | null;
  /** The user a personal token acts for; null: the organization's service token. */
  userId: string | null;
}

export interface TokenCreateOptions {
  /** An explicit token (bootstrap); generated when absent. */
  token?: string;
  label?: string;
  /** Default `write`. */
  scope?: TokenScope;
  /** Must be in the future; absent or null: never expires. */
  expiresAt?: Date | null;
  /** A personal token of this user (who must be a member of the organization); absent: a service token. */
  userId?: string;
}

/** Who a verified token speaks for. */
export interface VerifiedToken {
  orgId: string;
  tokenId: string;
  scope: TokenScope;
  /** The user of a personal token; null for a service token. */
  userId: string | null;
}

export interface OrgStore {
  /** ConflictError (`CONFLICT`) when `id` is taken. */
  create(input: { id?: string; title: string }): Promise<OrganizationRecord>;
  /** Creates it unless it exists; returns the stored one either way. */
  ensure(input: { id: string; title: string }): Promise<OrganizationRecord>;
  get(id: string): Promise<OrganizationRecord | null>;
  list(options: PageOptions): Promise<Paginated<OrganizationRecord>>;
}

export interface TokenStore {
  /**
   * Creates an API token for the organization and returns it in clear (only the sha256 is stored).
   * With an explicit `token` it is idempotent: the same token for the same org returns the same id;
   * a token already held by another organization is a ConflictError.
   */
  create(organizationId: string, options?: TokenCreateOptions): Promise<{ id: string; token: string; record: TokenRecord }>;
  /**
   * The owner and scope of a valid token (not revoked, not expired), or null. Never cached: a token revoked
   * a moment ago is refused by the next call.
   */
  verify(token: string): Promise<VerifiedToken | null>;
  /** Tokens that are neither revoked nor expired. */
  count(organizationId?: string): Promise<number>;
  /** Every token of the organization (revoked and expired ones too), oldest first; only one user's with `userId`. */
  list(organizationId: string, options?: { userId?: string }): Promise<TokenRecord[]>;
  get(organizationId: string, tokenId: string): Promise<TokenRecord | null>;
  /** Idempotent (a revoked token keeps its first revocation time). NotFoundError when the org has no such token. */
  revoke(organizationId: string, tokenId: string): Promise<TokenRecord>;
}
