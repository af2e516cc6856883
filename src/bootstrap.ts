import type { Store } from './store/index.js';

export interface BootstrapResult {
  organizationId: string;
  createdOrganization: boolean;
  /** The owner user of the organization (its first admin), when it has one made by the bootstrap. */
  ownerId?: string;
  createdOwner: boolean;
  /** A clear token, only when one was created now (print it once): the owner's personal token. */
  token?: string;
}

/**
 * First start: with an empty store, create the bootstrap organization, its owner (a user who is its admin) and the
 * owner's personal token. With FOLIO_BOOTSTRAP_TOKEN, that token is ensured instead (idempotent across restarts; a
 * token already stored keeps what it is). A bootstrap organization without any member (a store made before people
 * existed) gets its owner on the next start; its tokens stay the organization's service tokens.
 */
export async function bootstrap(store: Store, options: { organizationId: string; token?: string; title?: string }): Promise<BootstrapResult> {
  const existing = await store.orgs.get(options.organizationId);
  const anyOrg = existing ?? (await store.orgs.list({ limit: 1 })).items[0];
  let createdOrganization = false;
  if (!existing && (!anyOrg || options.token)) {
    await store.orgs.create({ id: options.organizationId, title: options.title ?? 'Default organization' });
    createdOrganization = true;
  }
  const result: BootstrapResult = { organizationId: options.organizationId, createdOrganization, createdOwner: false };
  if (!existing && !createdOrganization) return result;
  const owner = await ensureOwner(store, options.organizationId);
  result.ownerId = owner.id;
  result.createdOwner = owner.created;
  if (options.token) {
    if (!(await store.tokens.verify(options.token)))
      await store.tokens.create(options.organizationId, { token: options.token, label: 'bootstrap', userId: owner.id });
    return result;
  }
  if (createdOrganization) result.token = (await store.tokens.create(options.organizationId, { label: 'bootstrap', userId: owner.id })).token;
  return result;
}

/** The organization's owner: its first admin member, or a new user made its admin when it has no admin at all. */
async function ensureOwner(store: Store, organizationId: string): Promise<{ id: string; created: boolean }> {
  const admins = await store.members.list(organizationId, { limit: 1, role: 'admin', sort: 'joinedAt', order: 'asc' });
  if (admins.items[0]) return { id: admins.items[0].userId, created: false };
  const user = await store.users.create({ displayName: 'Owner' });
  await store.members.add(organizationId, user.id, { role: 'admin' }, { via: 'bootstrap' });
  return { id: user.id, created: true };
}
