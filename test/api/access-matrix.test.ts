/**
 * Issue 26: the route × role matrix, generated from the one access table (src/api/access.ts). Every `/v1` route Folio
 * registers is called with each kind of caller — a member of each role (admin … read), a guest, the organization's
 * write and read service tokens — and the answer is checked against what the table says: the request reaches the
 * handler, or it is refused with 404 (the caller cannot see the target) or 403 (it can, but its role is too weak).
 *
 * The server is the real one (`buildServer`, the real auth hook and store) with every route's handler replaced by a
 * probe that answers 299: what is tested is the gate alone, so that no call changes anything and every route can be
 * called with every role. A registered route without an entry in the table fails the first test; the table's
 * semantics are restated here (`expected`) independently of the hook's code.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS, type RouteAccess } from '../../src/api/access.js';
import { installAuth } from '../../src/api/auth.js';
import { installErrorHandler } from '../../src/api/error-handler.js';
import { buildServer } from '../../src/api/server.js';
import { loadConfig } from '../../src/config/config.js';
import { ROLE_ORDER, type MemberRole } from '../../src/people/roles.js';
import type { Store } from '../../src/store/index.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';

const ORG = 'matrix-org';
const OTHER = 'matrix-other';
const PROBE = 299;

type Caller =
  | { name: string; token: string; kind: 'member'; role: MemberRole | null; userId: string }
  | { name: string; token: string; kind: 'service'; scope: 'read' | 'write' };

let store: Store;
let app: Awaited<ReturnType<typeof buildServer>>;
let base: string;
const routes: Array<{ method: string; url: string; readOnly: boolean }> = [];
const callers: Caller[] = [];
const ids: Record<string, string> = {};

beforeAll(async () => {
  store = await createTestStore();
  await store.orgs.create({ id: ORG, title: 'Matrix' });
  await store.orgs.create({ id: OTHER, title: 'Elsewhere' });
  for (const role of [...ROLE_ORDER, null]) {
    const name = role ?? 'guest';
    const user = await store.users.create({ displayName: `User ${name}`, email: `${name}@matrix.test` });
    await store.members.add(ORG, user.id, { role }, { via: 'cli' });
    const { token } = await store.tokens.create(ORG, { userId: user.id, label: name });
    callers.push({ name, token, kind: 'member', role, userId: user.id });
  }
  for (const scope of ['write', 'read'] as const)
    callers.push({ name: `service-${scope}`, token: (await store.tokens.create(ORG, { scope, label: scope })).token, kind: 'service', scope });
  const space = await store.spaces.create(ORG, { title: 'Inherits' });
  const invite = await store.invites.create(ORG, { target: { kind: 'organization' }, role: 'read' }, { via: 'cli' });
  // A member whose profile and membership the member routes address (everyone in the organization can see them).
  const subject = await store.users.create({ displayName: 'Subject', email: 'subject@matrix.test' });
  await store.members.add(ORG, subject.id, { role: 'read' }, { via: 'cli' });
  // A collection that inherits: the caller's role there is their organization role, as for the space.
  const collection = await store.collections.create(ORG, { title: 'Inherits' });
  // A private integration of the organization: its routes decide on the owning organization's role.
  await store.integrations.publish('matrix-hook', {
    organizationId: ORG,
    title: 'Hook',
    description: 'd',
    target: 'all',
    visibility: 'private',
    scopes: [],
    categories: [],
  });
  Object.assign(ids, {
    organizationId: ORG,
    spaceId: space.id,
    inviteId: invite.id,
    userId: subject.id,
    collectionId: collection.id,
    integrationName: 'matrix-hook',
  });
  app = await buildServer(
    { store, temporal: {} as never, config: { ...loadConfig({}), parseThreads: 1 }, logger: testLogger('matrix') },
    {
      onRoute: (route) => {
        for (const method of [route.method].flat())
          if (method !== 'HEAD' && route.url.startsWith('/v1/'))
            routes.push({ method, url: route.url, readOnly: (route.config as { readOnly?: boolean } | undefined)?.readOnly === true });
        // The probe: reaching the handler is being let through by the gate. No schema either (the gate runs before validation).
        if (route.url.startsWith('/v1/')) {
          route.schema = undefined;
          route.handler = async (_request, reply) => reply.status(PROBE).send({ reached: true });
        }
      },
    },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  await store?.close();
});

/** The concrete path of a route: the fixtures' ids for what the gate looks at, a placeholder for the rest. */
function pathOf(url: string, caller: Caller, entry: RouteAccess | undefined): string {
  return url.replace('/*', '/intro').replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    // `self` and `user` routes address the caller's own profile, which every member can see.
    if (name === 'userId' && (entry?.target === 'self' || entry?.target === 'user') && caller.kind === 'member') return caller.userId;
    return ids[name] ?? `x${name}`;
  });
}

/** A body naming the fixture space wherever a route's entry checks a space named in its body. */
function bodyOf(entry: RouteAccess | undefined): unknown {
  if (!entry?.body) return { probe: true };
  for (const candidate of [{ target: { space: ids.spaceId } }, { source: { space: ids.spaceId } }, { spaces: [ids.spaceId] }, { spaceId: ids.spaceId }])
    if (entry.body.spaces(candidate).includes(ids.spaceId!)) return candidate;
  throw new Error('no body names the space for this entry');
}

const rank = (role: MemberRole | null) => (role === null ? 0 : ROLE_ORDER.indexOf(role) + 1);

/**
 * What the table says a caller gets: 'reach' (the handler runs), 403 or 404. Restated from the table's documentation.
 * A route without an entry is refused to everyone (the first test fails for it all the same).
 */
function expected(method: string, entry: RouteAccess | undefined, caller: Caller, readOnly = false): 'reach' | 403 | 404 {
  // A read-only token sends GET, and the reads sent as POST (site search: a route marked `config: { readOnly: true }`).
  if (caller.kind === 'service' && caller.scope === 'read' && method !== 'GET' && !readOnly) return 403;
  if (!entry) return 403;
  const orgRole: MemberRole | null = caller.kind === 'service' ? (caller.scope === 'write' ? 'admin' : 'read') : caller.role;
  const enough = (role: MemberRole | null, needed: MemberRole) => rank(role) >= rank(needed);
  switch (entry.target) {
    case 'caller':
    case 'user':
      return 'reach';
    case 'self':
      return caller.kind === 'member' ? 'reach' : 403;
    case 'invite':
      return caller.kind === 'member' ? 'reach' : 403;
    case 'integration':
    case 'org': {
      const ok = (entry.guests && orgRole === null) || enough(orgRole, entry.role);
      if (!ok) return 403;
      // A space named in the body: the fixture space inherits, so the caller's role there is their organization role.
      if (entry.body) return orgRole === null ? 404 : enough(orgRole, entry.body.role) ? 'reach' : 403;
      return 'reach';
    }
    case 'space':
    case 'collection':
      if (orgRole === null) return entry.absentPasses ? 'reach' : 404;
      return enough(orgRole, entry.role) ? 'reach' : 403;
  }
}

describe('the route × role matrix, from the access table', () => {
  it('every registered /v1 route declares its role, and the table names no route that does not exist', () => {
    expect(routes.length).toBeGreaterThan(130);
    const registered = new Set(routes.map((r) => `${r.method} ${r.url}`));
    expect([...registered].filter((key) => !(key in ACCESS)).sort()).toEqual([]);
    expect(Object.keys(ACCESS).filter((key) => !registered.has(key))).toEqual([]);
  });

  it('every route answers every kind of caller as the table says', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const entry = ACCESS[`${route.method} ${route.url}`];
      for (const caller of callers) {
        const want = expected(route.method, entry, caller, route.readOnly);
        const res = await fetch(base + pathOf(route.url, caller, entry), {
          method: route.method,
          headers: {
            authorization: `Bearer ${caller.token}`,
            ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
          },
          body: route.method === 'GET' || route.method === 'DELETE' ? undefined : JSON.stringify(bodyOf(entry)),
        });
        calls++;
        const got = res.status === PROBE ? 'reach' : res.status;
        const body = res.status === PROBE ? null : ((await res.json()) as { error?: { code?: number; message?: string } });
        if (got !== want) failures.push(`${route.method} ${route.url} as ${caller.name}: got ${got}, the table says ${want} (${body?.error?.message ?? ''})`);
        else if (got === 403 && !/\((INSUFFICIENT_ROLE|READ_ONLY_TOKEN|NOT_THE_USER|USER_TOKEN_REQUIRED|ROUTE_NOT_DECLARED)\)/.test(body?.error?.message ?? ''))
          failures.push(`${route.method} ${route.url} as ${caller.name}: a 403 without its code: ${body?.error?.message}`);
      }
    }
    expect(failures).toEqual([]);
    // routes × callers, every one of them called.
    expect(calls).toBe(routes.length * callers.length);
  });

  it('another organization’s objects answer 404 to every caller, whatever its role here', async () => {
    const theirs = await store.spaces.create(OTHER, { title: 'Theirs' });
    const theirCollection = await store.collections.create(OTHER, { title: 'Theirs' });
    const paths = [`/v1/orgs/${OTHER}`, `/v1/orgs/${OTHER}/members`, `/v1/spaces/${theirs.id}`, `/v1/spaces/${theirs.id}/permissions/users`];
    paths.push(`/v1/spaces/${theirs.id}/pdf`, `/v1/spaces/${theirs.id}/change-requests/1/pdf`);
    paths.push(`/v1/orgs/${OTHER}/collections`, `/v1/collections/${theirCollection.id}`, `/v1/collections/${theirCollection.id}/spaces`);
    await store.integrations.publish('matrix-theirs', {
      organizationId: OTHER,
      title: 'Theirs',
      description: 'd',
      target: 'all',
      visibility: 'private',
      scopes: [],
      categories: [],
    });
    paths.push('/v1/integrations/matrix-theirs', '/v1/integrations/matrix-theirs/events');
    for (const caller of callers.filter((c) => (c.kind === 'service' ? c.scope === 'write' : c.role === 'admin'))) {
      for (const path of paths) {
        const res = await fetch(base + path, { headers: { authorization: `Bearer ${caller.token}` } });
        expect(res.status, `${path} as ${caller.name}`).toBe(404);
      }
      // Development mode of their integration: not found either, and left as it was.
      for (const method of ['PUT', 'DELETE']) {
        const res = await fetch(`${base}/v1/integrations/matrix-theirs/dev`, {
          method,
          headers: { authorization: `Bearer ${caller.token}`, ...(method === 'PUT' ? { 'content-type': 'application/json' } : {}) },
          body: method === 'PUT' ? JSON.stringify({ tunnelUrl: 'https://tunnel.example/' }) : undefined,
        });
        expect(res.status, `${method} dev as ${caller.name}`).toBe(404);
      }
    }
    expect(await store.integrations.devTunnel('matrix-theirs')).toBeNull();
  });
});

describe('a /v1 route without an entry in the table', () => {
  it('is refused to everyone, even an admin (fail closed)', async () => {
    const bare = Fastify();
    installErrorHandler(bare);
    installAuth(bare, store);
    bare.get('/v1/orgs/:organizationId/undeclared', async () => ({ reached: true }));
    await bare.ready();
    const admin = callers.find((c) => c.name === 'service-write')!;
    const res = await bare.inject({ method: 'GET', url: `/v1/orgs/${ORG}/undeclared`, headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toMatch(/ROUTE_NOT_DECLARED/);
    await bare.close();
  });
});
