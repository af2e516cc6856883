/**
 * The HTTP API on a fresh in-memory store, without Temporal (for routes that start no workflow): requests go through
 * `app.inject`, people are made in the store with personal tokens, and success bodies can be checked against the spec.
 */
import { buildServer } from '../../src/api/server.js';
import { loadConfig } from '../../src/config/config.js';
import type { MemberRole, Store } from '../../src/store/index.js';
import { testLogger } from './logger.js';
import { createTestStore } from './store.js';

export interface Person {
  id: string;
  token: string;
}

export interface ApiBed {
  store: Store;
  app: Awaited<ReturnType<typeof buildServer>>;
  /** The organization's write service token (an admin of everything there). */
  service: Person;
  organizationId: string;
  person(name: string, role: MemberRole | null, organizationId?: string): Promise<Person>;
  request(who: Person, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startApiBed(organizationId = 'bed-org'): Promise<ApiBed> {
  const store = await createTestStore();
  await store.orgs.create({ id: organizationId, title: 'Bed' });
  const app = await buildServer({
    store,
    temporal: {} as never,
    config: { ...loadConfig({}), parseThreads: 1 },
    logger: testLogger('api-bed'),
    baseUrl: 'http://127.0.0.1:9',
  });
  const service = await store.tokens.create(organizationId, { label: 'service' });
  return {
    store,
    app,
    organizationId,
    service: { id: service.id, token: service.token },
    async person(name, role, org = organizationId) {
      const user = await store.users.create({ displayName: name, email: `${name.toLowerCase().replace(/\W+/g, '-')}@bed.test` });
      await store.members.add(org, user.id, { role }, { via: 'cli' });
      return { id: user.id, token: (await store.tokens.create(org, { userId: user.id, label: name })).token };
    },
    async request(who, method, path, body) {
      const res = await app.inject({
        method: method as 'GET',
        url: path,
        headers: { authorization: `Bearer ${who.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      return { status: res.statusCode, body: res.body === '' ? undefined : res.json() };
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}
