import { atLeast } from '../people/roles.js';
import type { CollectionRecord } from '../store/index.js';
import { insufficientRole, type AuthContext } from './auth.js';
import type { ApiDeps } from './deps.js';
import { badRequest } from './http-errors.js';

/**
 * The collection `id` as the parent of new or moved content: one of the caller's organization they can see (else
 * 400 naming `field`, the same for an unknown one and another organization's), where they have the `create` role (403).
 */
export async function targetCollection(deps: ApiDeps, auth: AuthContext, id: string, field: string): Promise<CollectionRecord> {
  const collection = await deps.store.collections.get(id);
  const role = collection && collection.organizationId === auth.organizationId ? await auth.access.collectionRole(collection) : null;
  if (!collection || role === null) throw badRequest(`${field}: collection not found: ${id.slice(0, 64)}`);
  if (!atLeast(role, 'create')) throw insufficientRole('create', role, `collection ${id}`);
  return collection;
}
