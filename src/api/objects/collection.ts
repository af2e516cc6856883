import type { CollectionRecord, MemberRole } from '../../store/index.js';
import { collectionPermissions } from './permissions.js';
import type { UrlBuilder } from './urls.js';

/** The official Collection object; `permissions` for a caller with `role` on it. */
export function collectionObject(collection: CollectionRecord, urls: UrlBuilder, role: MemberRole | null) {
  return {
    object: 'collection' as const,
    id: collection.id,
    title: collection.title,
    ...(collection.description !== null ? { description: collection.description } : {}),
    organization: collection.organizationId,
    ...(collection.parent ? { parent: collection.parent } : {}),
    defaultLevel: collection.defaultLevel,
    urls: { location: urls.api(`/collections/${collection.id}`), app: urls.app(`/c/${collection.id}`) },
    permissions: collectionPermissions(role),
  };
}
