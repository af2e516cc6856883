/**
 * Where caches live: `<root>/orgs/<organizationId>/<spaceId>/<key>`. Organization and space are the ids of the
 * store's records, so a cache key chosen by a client never reaches across spaces or organizations.
 */
import path from 'node:path';

/** The tenant a cache belongs to: ids from the store's records (never a client-chosen string). */
export interface CacheScope {
  organizationId: string;
  spaceId: string;
}

/** The top directory of the tenant layout under a cache root; anything else under the root is a legacy cache. */
export const TENANT_DIR = 'orgs';

/** Store ids (organization, space) are 1-64 characters of [A-Za-z0-9_-]: safe path components as they are. */
const STORE_ID = /^[A-Za-z0-9_-]{1,64}$/;

function scopePart(what: string, id: string): string {
  if (!STORE_ID.test(id)) throw new TypeError(`git cache scope: ${what} id must be 1-64 characters of [A-Za-z0-9_-]`);
  return id;
}

/** The directory of one organization's caches: `<root>/orgs/<organizationId>`. */
export function organizationCacheDir(root: string, organizationId: string): string {
  return path.join(path.resolve(root), TENANT_DIR, scopePart('organization', organizationId));
}

/** The directory holding every cache (and lock) of one space: `<root>/orgs/<organizationId>/<spaceId>`. */
export function spaceCacheDir(root: string, scope: CacheScope): string {
  return path.join(organizationCacheDir(root, scope.organizationId), scopePart('space', scope.spaceId));
}
