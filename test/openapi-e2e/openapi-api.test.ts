import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRefreshSchedule, refreshScheduleId } from '../../src/openapi/schedule.js';
import { workflowIds } from '../../workflows/definitions.js';
import type { ProcessOpenApiSpecResult } from '../../workflows/openapi.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract } from '../helpers/openapi-contract.js';
import { startSpecServer, type SpecServer } from '../openapi/spec-server.js';
import { corpusDir } from '../../src/project-root.js';

/**
 * OpenAPI specs through the HTTP API on the test dev server: processing workflow, versions, failures
 * (FETCH_TIMEOUT with a short OPENAPI_FETCH_TIMEOUT_MS, FETCH_ERROR, PARSE_ERROR), refresh schedules.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '../openapi/fixtures');
const corpusSpec = path.join(corpusDir(), 'aimlapi+api-docs/docs/capabilities/batch-get.json');

function filesUnder(dir: string, prefix = ''): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, `${prefix}${name}/`));
    else out.push([`${prefix}${name}`, readFileSync(full, 'utf8')]);
  }
  return out;
}

let folio: TestFolio;
let server: SpecServer;
const hanging: Array<import('node:http').ServerResponse> = [];

async function call(method: string, p: string, body?: unknown) {
  const res = await folio.request(method, p, body);
  if (res.status < 300 && res.status !== 204) assertContract(method, p, res.status, res.body);
  return res;
}

/** Polls the spec until the given run has completed. */
async function waitComplete(slug: string, minRuns = 1): Promise<any> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call('GET', `/v1/orgs/${folio.organizationId}/openapi/${slug}`);
    expect(res.status).toBe(200);
    const spec = await folio.store.sql.query<{ process_runs: number; applied_run: number }>('SELECT process_runs, applied_run FROM openapi_specs WHERE id = $1', [res.body.id]);
    const row = spec[0]!;
    if (res.body.processingState === 'complete' && row.applied_run >= minRuns && row.applied_run >= row.process_runs) return res.body;
    if (Date.now() > deadline) throw new Error(`spec ${slug} did not complete: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const org = () => `/v1/orgs/${folio.organizationId}`;

/** The result of API-started run `run` of a spec (the workflow also updates the schedule after recording). */
async function runResult(specId: string, run: number): Promise<ProcessOpenApiSpecResult> {
  return folio.client.workflow.getHandle(workflowIds.openapiProcess(specId, run)).result();
}

beforeAll(async () => {
  const routes: Record<string, import('../openapi/spec-server.js').Route> = {};
  for (const [rel, text] of filesUnder(fixtures)) routes[`/specs/${rel}`] = { body: text };
  routes['/corpus/batch-get.json'] = { body: readFileSync(corpusSpec), headers: { 'content-type': 'application/json' } };
  routes['/never'] = (_req, res) => void hanging.push(res);
  server = await startSpecServer(routes);
  folio = await startFolio({ env: { OPENAPI_FETCH_TIMEOUT_MS: '700', OPENAPI_REFRESH_INTERVAL: '1h' } });
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await folio?.stop();
  await server?.close();
});

describe('OpenAPI specs through the API', () => {
  it('creates a URL spec, processes it into a version with every file, and schedules its refresh', async () => {
    const created = await call('POST', `${org()}/openapi`, { slug: 'split', source: { url: `${server.url}/specs/split/openapi.yaml` } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'openapi-spec', slug: 'split', sourceURL: `${server.url}/specs/split/openapi.yaml`, visibility: 'private' });
    expect(['pending', 'progress', 'complete']).toContain(created.body.processingState);

    const spec = await waitComplete('split');
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(spec.lastProcessedAt).toEqual(expect.any(String));
    expect(spec.lastProcessErrorCode).toBeUndefined();

    const versions = await call('GET', `${org()}/openapi/split/versions`);
    expect(versions.body.items.map((v: { id: string }) => v.id)).toEqual([spec.lastVersion]);
    const latest = await call('GET', `${org()}/openapi/split/versions/latest`);
    expect(latest.body).toMatchObject({ object: 'openapi-spec-version', id: spec.lastVersion, url: `${server.url}/specs/split/openapi.yaml` });
    const content = await call('GET', `${org()}/openapi/split/versions/latest/content`);
    expect(Object.keys(content.body.filesystem).sort()).toEqual(['../shared/errors.json', 'openapi.yaml', 'schemas/common.yaml', 'schemas/pet.yaml']);
    expect(content.body.filesystem['schemas/pet.yaml']).toBe(readFileSync(path.join(fixtures, 'split/schemas/pet.yaml'), 'utf8'));
    expect(content.body.url).toBe(`${server.url}/specs/split/openapi.yaml`);
    const byId = await call('GET', `${org()}/openapi/split/versions/${spec.lastVersion}/content`);
    expect(byId.body.filesystem).toEqual(content.body.filesystem);
    const raw = await call('GET', `${org()}/openapi/split/versions/latest/content/raw`);
    expect(raw.body).toEqual({ text: readFileSync(path.join(fixtures, 'split/openapi.yaml'), 'utf8'), format: 'yaml' });

    const schedule = await describeRefreshSchedule(folio.client, spec.id);
    expect(schedule).toMatchObject({ paused: false });
    expect(schedule!.every).toBeDefined();
  });

  it('PUT with the same source re-processes now without a new version; changed content makes one', async () => {
    const before = await waitComplete('split');
    const put = await call('PUT', `${org()}/openapi/split`, { source: { url: `${server.url}/specs/split/openapi.yaml` } });
    expect(put.status).toBe(200);
    const after = await waitComplete('split', 2);
    expect(after.lastVersion).toBe(before.lastVersion);
    expect(after.lastProcessedAt > before.lastProcessedAt).toBe(true);
    expect((await call('GET', `${org()}/openapi/split/versions`)).body.items).toHaveLength(1);

    const original = server.routes.get('/specs/split/schemas/common.yaml')!;
    server.routes.set('/specs/split/schemas/common.yaml', { body: readFileSync(path.join(fixtures, 'split/schemas/common.yaml'), 'utf8').replace('format: uuid', 'format: ulid') });
    try {
      await call('PUT', `${org()}/openapi/split`, { source: { url: `${server.url}/specs/split/openapi.yaml` } });
      const changed = await waitComplete('split', 3);
      expect(changed.lastVersion).not.toBe(before.lastVersion);
      const versions = await call('GET', `${org()}/openapi/split/versions`);
      expect(versions.body.items.map((v: { id: string }) => v.id)).toEqual([changed.lastVersion, before.lastVersion]);
      const old = await call('GET', `${org()}/openapi/split/versions/${before.lastVersion}/content`);
      expect(old.body.filesystem['schemas/common.yaml']).toContain('uuid');
    } finally {
      server.routes.set('/specs/split/schemas/common.yaml', original);
    }
  });

  it('records FETCH_TIMEOUT, FETCH_ERROR and PARSE_ERROR, keeps serving the last good version, clears the code on success', async () => {
    server.routes.set('/flaky.json', { body: readFileSync(corpusSpec) });
    await call('POST', `${org()}/openapi`, { slug: 'flaky', source: { url: `${server.url}/flaky.json` } });
    const good = await waitComplete('flaky');
    expect(good.lastProcessErrorCode).toBeUndefined();
    // A real spec that deviates from the schema deep inside: usable, with its warnings listed.
    expect(good.lastProcessedErrorCount).toBeGreaterThan(0);

    let runs = 1;
    const cases: Array<[string, import('../openapi/spec-server.js').Route, string]> = [
      ['FETCH_ERROR', { status: 500, body: 'down' }, '500'],
      ['FETCH_TIMEOUT', (_req, res) => void hanging.push(res), 'timed out'],
      ['PARSE_ERROR', { body: 'openapi: 3.0.3\ninfo:\n  title: [broken\n' }, 'flaky.json:'],
    ];
    for (const [code, route, hint] of cases) {
      server.routes.set('/flaky.json', route);
      const put = await call('PUT', `${org()}/openapi/flaky`, { source: { url: `${server.url}/flaky.json` } });
      expect(put.status).toBe(200);
      const failed = await waitComplete('flaky', ++runs);
      expect(failed.lastProcessErrorCode, code).toBe(code);
      expect(failed.processingState).toBe('complete');
      expect(failed.lastVersion).toBe(good.lastVersion);
      expect(failed.lastProcessedErrors.length).toBeGreaterThan(0);
      expect(JSON.stringify(failed.lastProcessedErrors), code).toContain(hint);
      const latest = await call('GET', `${org()}/openapi/flaky/versions/latest/content`);
      expect(Object.keys(latest.body.filesystem)).toEqual(['flaky.json']);
    }

    server.routes.set('/flaky.json', { body: readFileSync(corpusSpec) });
    await call('PUT', `${org()}/openapi/flaky`, { source: { url: `${server.url}/flaky.json` } });
    const healed = await waitComplete('flaky', ++runs);
    expect(healed.lastProcessErrorCode).toBeUndefined();
    expect(healed.lastVersion).toBe(good.lastVersion);
  });

  it('pauses the refresh schedule after repeated failures and resumes it after a success', async () => {
    server.routes.set('/pausing.yaml', { body: readFileSync(path.join(fixtures, 'swagger2.yaml')) });
    const created = await call('POST', `${org()}/openapi`, { slug: 'pausing', source: { url: `${server.url}/pausing.yaml` } });
    const id = created.body.id as string;
    expect((await runResult(id, 1)).outcome).toBe('processed');
    server.routes.set('/pausing.yaml', { status: 404, body: 'gone' });
    for (let i = 2; i <= 4; i++) {
      await call('PUT', `${org()}/openapi/pausing`, { source: { url: `${server.url}/pausing.yaml` } });
      const result = await runResult(id, i);
      expect(result).toMatchObject({ outcome: 'failed', code: 'FETCH_ERROR', run: i, schedulePaused: i === 4 });
    }
    const paused = await describeRefreshSchedule(folio.client, created.body.id);
    expect(paused!.paused).toBe(true);
    expect(paused!.note).toContain('3 consecutive failures');
    expect(paused!.note).toContain('FETCH_ERROR');

    server.routes.set('/pausing.yaml', { body: readFileSync(path.join(fixtures, 'swagger2.yaml')) });
    await call('PUT', `${org()}/openapi/pausing`, { source: { url: `${server.url}/pausing.yaml` } });
    expect(await runResult(id, 5)).toMatchObject({ outcome: 'processed', schedulePaused: false });
    expect((await describeRefreshSchedule(folio.client, created.body.id))!.paused).toBe(false);
  });

  it('a scheduled run re-processes the spec', async () => {
    const spec = await waitComplete('split');
    const [{ process_runs: before }] = await folio.store.sql.query<{ process_runs: number }>('SELECT process_runs FROM openapi_specs WHERE id = $1', [spec.id]);
    await folio.client.schedule.getHandle(refreshScheduleId(spec.id)).trigger();
    const after = await waitComplete('split', before + 1);
    expect(after.lastProcessErrorCode).toBeUndefined();
    const workflows: string[] = [];
    for await (const wf of folio.client.workflow.list({ query: `WorkflowId STARTS_WITH "openapi/${spec.id}/process/scheduled"` })) workflows.push(wf.workflowId);
    expect(workflows.length).toBeGreaterThan(0);
  });

  it('a text source is processed without a schedule; switching sources adds or removes the schedule', async () => {
    const text = readFileSync(path.join(fixtures, 'swagger2.yaml'), 'utf8');
    const created = await call('POST', `${org()}/openapi`, { slug: 'text-spec', source: { text } });
    expect(created.status).toBe(201);
    expect(created.body.sourceURL).toBeUndefined();
    const spec = await waitComplete('text-spec');
    expect(spec.lastVersion).toEqual(expect.any(String));
    const content = await call('GET', `${org()}/openapi/text-spec/versions/latest/content`);
    expect(content.body.filesystem).toEqual({ 'openapi.yaml': text });
    expect(await describeRefreshSchedule(folio.client, spec.id)).toBeNull();

    await call('PUT', `${org()}/openapi/text-spec`, { source: { url: `${server.url}/specs/swagger2.yaml` } });
    await waitComplete('text-spec', 2);
    expect(await describeRefreshSchedule(folio.client, spec.id)).not.toBeNull();
    await call('PUT', `${org()}/openapi/text-spec`, { source: { text } });
    await waitComplete('text-spec', 3);
    expect(await describeRefreshSchedule(folio.client, spec.id)).toBeNull();
  });

  it('PUT creates a missing spec (201); PATCH sets visibility; lists page; DELETE removes the spec and its schedule', async () => {
    const put = await call('PUT', `${org()}/openapi/made-by-put`, { source: { url: `${server.url}/specs/swagger2.yaml` } });
    expect(put.status).toBe(201);
    await waitComplete('made-by-put');
    const patched = await call('PATCH', `${org()}/openapi/made-by-put`, { visibility: 'public' });
    expect(patched.body.visibility).toBe('public');

    const first = await call('GET', `${org()}/openapi?limit=2`);
    expect(first.body.items).toHaveLength(2);
    const rest = await call('GET', `${org()}/openapi?limit=100&page=${first.body.next.page}`);
    expect([...first.body.items, ...rest.body.items].map((s: { slug: string }) => s.slug)).toContain('made-by-put');

    const id = put.body.id as string;
    expect(await describeRefreshSchedule(folio.client, id)).not.toBeNull();
    expect((await folio.request('DELETE', `${org()}/openapi/made-by-put`)).status).toBe(204);
    expect(await describeRefreshSchedule(folio.client, id)).toBeNull();
    expect((await folio.request('GET', `${org()}/openapi/made-by-put`)).status).toBe(404);
    expect((await folio.request('GET', `${org()}/openapi/made-by-put/versions/latest`)).status).toBe(404);
  });

  it('validates input: slug pattern, source shape, duplicates, visibility, other organizations', async () => {
    const bad = [
      { slug: 'Bad Slug', source: { url: `${server.url}/x` } },
      { slug: 'ok', source: { url: 'file:///etc/passwd' } },
      { slug: 'ok', source: {} },
      { slug: 'ok', source: { text: '' } },
      { source: { url: `${server.url}/x` } },
    ];
    for (const b of bad) {
      const res = await folio.request('POST', `${org()}/openapi`, b);
      expect(res.status, JSON.stringify(b)).toBe(400);
      expect(res.body.error.code).toBe(400);
    }
    const dup = await folio.request('POST', `${org()}/openapi`, { slug: 'split', source: { url: `${server.url}/x` } });
    expect(dup.status).toBe(409);
    expect((await folio.request('PATCH', `${org()}/openapi/split`, { visibility: 'secret' })).status).toBe(400);
    expect((await folio.request('GET', `${org()}/openapi/split/versions/nope`)).status).toBe(404);
    await folio.store.orgs.ensure({ id: 'someone-else', title: 'Other' });
    expect((await folio.request('GET', '/v1/orgs/someone-else/openapi')).status).toBe(403);
  });
});
