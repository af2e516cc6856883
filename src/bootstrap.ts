import type { Store } from './store/index.js';

export interface BootstrapResult {
  organizationId: string;
  createdOrganization: boolean;
  /** A clear token, only when one was created now (print it once). */
  token?: string;
}

/**
 * First start: with an empty store, create the bootstrap organization and one API token.
 * With FOLIO_BOOTSTRAP_TOKEN, that token is ensured instead (idempotent across restarts).
 */
export async function bootstrap(store: Store, options: { organizationId: string; token?: string; title?: string }): Promise<BootstrapResult> {
  const existing = await store.orgs.get(options.organizationId);
  const anyOrg = existing ?? (await store.orgs.list({ limit: 1 })).items[0];
  let createdOrganization = false;
  if (!existing && (!anyOrg || options.token)) {
    await store.orgs.create({ id: options.organizationId, title: options.title ?? 'Default organization' });
    createdOrganization = true;
  }
  if (options.token) {
    await store.tokens.create(options.organizationId, { token: options.token, label: 'bootstrap' });
    return { organizationId: options.organizationId, createdOrganization };
  }
  if (createdOrganization) {
    const { token } = await store.tokens.create(options.organizationId, { label: 'bootstrap' });
    return { organizationId: options.organizationId, createdOrganization, token };
  }
  return { organizationId: options.organizationId, createdOrganization };
}
