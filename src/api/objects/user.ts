import type { UserRecord } from '../../store/index.js';
import type { UrlBuilder } from './urls.js';

/** The official User object. `email` only when known (and shown to members of a common organization only). */
export function userObject(user: UserRecord, urls: UrlBuilder) {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.displayName,
    ...(user.email ? { email: user.email } : {}),
    ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
    urls: { location: urls.api(`/users/${user.id}`) },
  };
}

/**
 * The User object of whoever did something (a change request's author, its merger): the user when `id` names one,
 * else the organization's service token that acted (older rows and service tokens record the token's id), else Folio.
 */
export function actorObject(id: string | null, users: ReadonlyMap<string, UserRecord>, urls: UrlBuilder) {
  const user = id ? users.get(id) : undefined;
  if (user) return userObject(user, urls);
  const actorId = id ?? 'folio';
  return { object: 'user' as const, id: actorId, displayName: id ? `API token ${id}` : 'Folio', urls: { location: urls.api(`/users/${actorId}`) } };
}
