/**
 * One schema per route (issue 32): every `/v1` route that takes a body declares it, every object of every request
 * schema is closed (an unknown or misplaced member is a 400 naming it), and docs/api-reference.md is the page
 * written from those schemas (`npx folio api-reference > docs/api-reference.md` after changing one).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiReference, type RouteEntry } from '../../src/api/reference.js';
import { routeTable } from '../../src/api/route-table.js';
import { buildServer } from '../../src/api/server.js';
import { closed, describeSchemaError } from '../../src/api/schema.js';
import { loadConfig } from '../../src/config/config.js';
import type { Store } from '../../src/store/index.js';
import { lazyClient } from '../../src/temporal/client/client.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Object schemas that stay open, with why. */
function openObjects(schema: unknown, at: string, out: string[] = []): string[] {
  if (Array.isArray(schema)) schema.forEach((s, i) => openObjects(s, `${at}[${i}]`, out));
  else if (schema && typeof schema === 'object') {
    const s = schema as Record<string, unknown>;
    if (s.properties && s.additionalProperties === undefined && !Array.isArray(s.allOf)) out.push(at);
    for (const [k, v] of Object.entries(s)) if (k !== 'enum' && k !== 'const' && k !== 'examples') openObjects(v, `${at}.${k}`, out);
  }
  return out;
}

let store: Store;
let routes: RouteEntry[];
beforeAll(async () => {
  store = await createTestStore();
  routes = await routeTable({ store, temporal: lazyClient(), config: { ...loadConfig({}), parseThreads: 1 }, logger: testLogger('routes') });
});
afterAll(async () => store?.close());

describe('request schemas', () => {
  it('closes every object, at every depth, unless the schema says otherwise', () => {
    const schema = closed({
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'string' } } }, list: { type: 'array', items: { type: 'object', properties: { c: {} } } } },
    });
    expect(openObjects(schema, 'schema')).toEqual([]);
    expect(closed({ type: 'object', properties: {}, additionalProperties: { type: 'string' } }).additionalProperties).toEqual({ type: 'string' });
  });

  it('names the member in its message', () => {
    expect(describeSchemaError({ keyword: 'additionalProperties', instancePath: '/changes/0', params: { additionalProperty: 'markdown' } }, 'body')).toBe(
      'body.changes[0] has an unknown member "markdown"',
    );
    expect(describeSchemaError({ keyword: 'required', instancePath: '', params: { missingProperty: 'url' } }, 'body')).toBe('body must have the member "url"');
  });

  it('every /v1 route that takes a body declares its schema, and no object of any route is open', () => {
    const v1 = routes.filter((r) => r.url.startsWith('/v1/'));
    expect(v1.length).toBeGreaterThan(80);
    const withoutBody = v1.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.schema?.body).map((r) => `${r.method} ${r.url}`);
    expect(withoutBody).toEqual([]);
    const open = v1.flatMap((r) => openObjects(r.schema, `${r.method} ${r.url}`));
    expect(open).toEqual([]);
  });

  it('answers a misplaced member with a 400 that names it, before the handler runs', async () => {
    const org = await store.orgs.create({ title: 'schemas' });
    const { token } = await store.tokens.create(org.id, { label: 'schemas' });
    const space = await store.spaces.create(org.id, { title: 'schemas' });
    const docsSite = await store.sites.create(org.id, { title: 'schemas' });
    const app = await buildServer({ store, temporal: lazyClient(), config: { ...loadConfig({}), parseThreads: 1 }, logger: testLogger('schemas') });
    try {
      const edit = await app.inject({
        method: 'POST',
        url: `/v1/spaces/${space.id}/change-requests/c1/content`,
        headers: { authorization: `Bearer ${token}` },
        payload: { changes: [{ operation: 'update_page', page: 'p1', markdown: '# Moved' }] },
      });
      expect(edit.statusCode).toBe(400);
      expect(edit.json()).toEqual({ error: { code: 400, message: 'invalid request: body.changes[0] has an unknown member "markdown"' } });
      const site = await app.inject({
        method: 'PATCH',
        url: `/v1/orgs/${org.id}/sites/${docsSite.id}`,
        headers: { authorization: `Bearer ${token}` },
        payload: { title: 'Docs', proxy: true },
      });
      expect(site.json()).toEqual({ error: { code: 400, message: 'invalid request: body has an unknown member "proxy"' } });
      // A well-formed request passes the schema and reaches the handler (this change request does not exist).
      const ok = await app.inject({
        method: 'POST',
        url: `/v1/spaces/${space.id}/change-requests/c1/content`,
        headers: { authorization: `Bearer ${token}` },
        payload: { changes: [{ operation: 'update_page', page: 'p1', document: { markdown: '# Moved' } }] },
      });
      expect(ok.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('docs/api-reference.md is the page written from the schemas (npx folio api-reference > docs/api-reference.md)', () => {
    expect(readFileSync(path.join(root, 'docs/api-reference.md'), 'utf8')).toBe(apiReference(routes));
  });
});
