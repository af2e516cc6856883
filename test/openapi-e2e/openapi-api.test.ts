import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { buildServer } from '../../src/api/server.js';
import { SOURCE_BODY_LIMIT_BYTES, SOURCE_TEXT_MAX_BYTES } from '../../src/store/openapi-input.js';
import { describeRefreshSchedule, ensureRefreshSchedule } from '../../src/temporal/client/openapi-schedule.js';
import { WorkflowServiceUnavailableError, refreshInput, startOpenApiProcessing } from '../../src/temporal/client/openapi-processing.js';
import { OpenApiSpecIdAttribute, refreshScheduleId, refreshWorkflowId, workflowIds } from '../../src/temporal/contract/index.js';
import type { ProcessOpenApiSpecResult } from '../../src/temporal/contract/index.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { testLogger } from '../helpers/logger.js';
import { assertContract } from '../helpers/openapi-contract.js';
import { startSpecServer, type SpecServer } from '../openapi/spec-server.js';
import { corpusDir } from '../../src/project-root.js';
import { rawSql } from '../../src/store/raw-sql.js';

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
    const spec = await rawSql(folio.store).query<{ process_runs: number; applied_run: number }>(
      'SELECT process_runs, applied_run FROM openapi_specs WHERE id = $1',
      [res.body.id],
    );
    const row = spec[0]!;
    if (res.body.processingState === 'complete' && row.applied_run >= minRuns && row.applied_run >= row.process_runs) return res.body;
    if (Date.now() > deadline) throw new Error(`spec ${slug} did not complete: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const org = () => `/v1/orgs/${folio.organizationId}`;

/** Runs numbered so far for a spec (`n` of the newest `openapi/<specId>/process/<n>`). */
async function runsOf(specId: string): Promise<number> {
  const rows = await rawSql(folio.store).query<{ process_runs: number }>('SELECT process_runs FROM openapi_specs WHERE id = $1', [specId]);
  return Number(rows[0]!.process_runs);
}

/** The result of API-started run `run` of a spec (the workflow also updates the schedule after recording). */
/**
 * The result of a processing run: a processed one completes with it; a failed one fails in Temporal (FAILED, a typed
 * non-retryable ApplicationFailure with the cause in its message) carrying it in the failure's details.
 */
async function runResult(specId: string, run: number): Promise<ProcessOpenApiSpecResult> {
  const handle = folio.client.workflow.getHandle(workflowIds.openapiProcess(specId, run));
  try {
    return await handle.result();
  } catch (err) {
    if (!(err instanceof WorkflowFailedError) || !(err.cause instanceof ApplicationFailure)) throw err;
    expect((await handle.describe()).status.name).toBe('FAILED');
    const result = err.cause.details?.[0] as ProcessOpenApiSpecResult;
    expect(err.cause.nonRetryable).toBe(true);
    expect(err.cause.type).toBe(result.code);
    expect(err.cause.message.startsWith(`${result.code}: `)).toBe(true);
    return result;
  }
}

beforeAll(async () => {
  const routes: Record<string, import('../openapi/spec-server.js').Route> = {};
  for (const [rel, text] of filesUnder(fixtures)) routes[`/specs/${rel}`] = { body: text };
  routes['/corpus/batch-get.json'] = { body: readFileSync(corpusSpec), headers: { 'content-type': 'application/json' } };
  routes['/never'] = (_req, res) => void hanging.push(res);
  server = await startSpecServer(routes);
  folio = await startFolio({ env: { OPENAPI_FETCH_TIMEOUT_MS: '700', OPENAPI_REFRESH_INTERVAL: '1h', FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS } });
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
    server.routes.set('/specs/split/schemas/common.yaml', {
      body: readFileSync(path.join(fixtures, 'split/schemas/common.yaml'), 'utf8').replace('format: uuid', 'format: ulid'),
    });
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
    // Valid JSON that violates the OpenAPI schema: `info.version` missing, a path item that is not an object.
    const schemaInvalid = JSON.stringify({ openapi: '3.0.3', info: { title: 'Broken' }, paths: { '/pets': 'nope' } });
    const cases: Array<[string, import('../openapi/spec-server.js').Route, string]> = [
      ['FETCH_ERROR', { status: 500, body: 'down' }, '500'],
      ['FETCH_TIMEOUT', (_req, res) => void hanging.push(res), 'timed out'],
      ['PARSE_ERROR', { body: 'openapi: 3.0.3\ninfo:\n  title: [broken\n' }, 'flaky.json:'],
      ['PARSE_ERROR', { body: schemaInvalid, headers: { 'content-type': 'application/json' } }, '#/info'],
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
      if (hint.startsWith('#/')) {
        expect(failed.lastProcessedErrors).toEqual(
          expect.arrayContaining([
            { location: '#/info', message: expect.stringContaining('version') },
            { location: '#/paths/~1pets', message: expect.stringContaining('object') },
          ]),
        );
        for (const e of failed.lastProcessedErrors) expect(e.location).toMatch(/^#\//);
      }
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

  it('a scheduled run re-processes the spec as openapi/<specId>/process/<n>, numbered like API runs', async () => {
    const spec = await waitComplete('split');
    const before = await runsOf(spec.id);
    await folio.client.schedule.getHandle(refreshScheduleId(spec.id)).trigger();
    const after = await waitComplete('split', before + 1);
    expect(after.lastProcessErrorCode).toBeUndefined();
    expect(await runsOf(spec.id)).toBe(before + 1);
    expect(await runResult(spec.id, before + 1)).toMatchObject({ outcome: 'processed', run: before + 1 });
    const described = await folio.client.workflow.getHandle(workflowIds.openapiProcess(spec.id, before + 1)).describe();
    expect(described.type).toBe('processOpenApiSpecWorkflow');
    expect(described.typedSearchAttributes.get(OpenApiSpecIdAttribute)).toBe(spec.id);
    // Started by the schedule's refresh workflow, which only numbers the run.
    expect(described.parentExecution?.workflowId).toMatch(new RegExp(`^${refreshWorkflowId(spec.id)}`));
  });

  it('scheduled runs that keep failing pause the schedule with a note', async () => {
    server.routes.set('/sched.yaml', { body: readFileSync(path.join(fixtures, 'swagger2.yaml')) });
    const created = await call('POST', `${org()}/openapi`, { slug: 'sched-fail', source: { url: `${server.url}/sched.yaml` } });
    const id = created.body.id as string;
    expect((await runResult(id, 1)).outcome).toBe('processed');
    server.routes.set('/sched.yaml', { status: 503, body: 'down' });
    const schedule = folio.client.schedule.getHandle(refreshScheduleId(id));
    for (let run = 2; run <= 4; run++) {
      await schedule.trigger();
      const spec = await waitComplete('sched-fail', run);
      expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(await runResult(id, run)).toMatchObject({ outcome: 'failed', code: 'FETCH_ERROR', run, schedulePaused: run === 4 });
    }
    const paused = await describeRefreshSchedule(folio.client, id);
    expect(paused).toMatchObject({ paused: true });
    expect(paused!.note).toContain('3 consecutive failures (last: FETCH_ERROR)');
    expect((await call('DELETE', `${org()}/openapi/sched-fail`)).status).toBe(205);
  });

  it('keeps an existing schedule in line with the configuration (interval and arguments), idempotently', async () => {
    const created = await call('POST', `${org()}/openapi`, { slug: 'sched-sync', source: { url: `${server.url}/specs/swagger2.yaml` } });
    await waitComplete('sched-sync');
    const record = (await folio.store.openapi.get(created.body.id))!;
    const options = (every: string, config = folio.config) => ({
      specId: record.id,
      organizationId: record.organizationId,
      taskQueue: config.taskQueue,
      every,
      input: refreshInput(record, config),
    });
    expect(await ensureRefreshSchedule(folio.client, options('1h'))).toBe('unchanged');
    const handle = folio.client.schedule.getHandle(refreshScheduleId(record.id));
    await handle.pause('paused by an operator');
    expect(await ensureRefreshSchedule(folio.client, options('2h'))).toBe('updated');
    let d = await handle.describe();
    expect(d.spec.intervals).toEqual([expect.objectContaining({ every: 2 * 3600_000 })]);
    expect(d.state).toMatchObject({ paused: true, note: 'paused by an operator' });
    expect(await ensureRefreshSchedule(folio.client, options('2h'))).toBe('unchanged');
    // Other arguments (a longer fetch timeout gives a longer processing deadline) replace the action's.
    const slower = { ...folio.config, openapiFetchTimeoutMs: 90_000 };
    expect(await ensureRefreshSchedule(folio.client, options('2h', slower))).toBe('updated');
    d = await handle.describe();
    expect(d.action.args).toEqual([refreshInput(record, slower)]);
    expect(d.action.workflowType).toBe('refreshOpenApiSpecWorkflow');
    // A PUT brings it back to the running configuration.
    await call('PUT', `${org()}/openapi/sched-sync`, { source: { url: `${server.url}/specs/swagger2.yaml` } });
    d = await handle.describe();
    expect(d.spec.intervals).toEqual([expect.objectContaining({ every: 3600_000 })]);
    expect(d.action.args).toEqual([refreshInput(record, folio.config)]);
    await waitComplete('sched-sync', 2);
    expect((await call('DELETE', `${org()}/openapi/sched-sync`)).status).toBe(205);
  });

  it('shows processingState "progress" while the document is being fetched', async () => {
    // A Folio whose fetch waits long enough for the test to look: the server holds the response until then.
    const patient = await startFolio({ env: { OPENAPI_FETCH_TIMEOUT_MS: '120000', FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }, store: folio.store });
    let held: import('node:http').ServerResponse | undefined;
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    const body = readFileSync(path.join(fixtures, 'swagger2.yaml'));
    server.routes.set('/held.yaml', (_req, res) => {
      if (held) return void res.end(body);
      held = res;
      arrived();
    });
    try {
      const created = await patient.request('POST', `${org()}/openapi`, { slug: 'held', source: { text: 'placeholder' } });
      expect(created.status).toBe(201);
      await waitComplete('held');
      const put = await patient.request('PUT', `${org()}/openapi/held`, { source: { url: `${server.url}/held.yaml` } });
      expect(put.status).toBe(200);
      await requested;
      const during = await call('GET', `${org()}/openapi/held`);
      expect(during.body.processingState).toBe('progress');
      held!.writeHead(200, { 'content-type': 'application/yaml' }).end(body);
      const done = await waitComplete('held', 2);
      expect(done.lastProcessErrorCode).toBeUndefined();
      expect(done.lastVersion).toEqual(expect.any(String));
      expect((await patient.request('DELETE', `${org()}/openapi/held`)).status).toBe(205);
    } finally {
      held?.destroy();
      await patient.stop();
    }
  });

  it('accepts slugs with capitals, as the platform API does; slugs are case-sensitive', async () => {
    const text = readFileSync(path.join(fixtures, 'swagger2.yaml'), 'utf8');
    const created = await call('POST', `${org()}/openapi`, { slug: 'Pet-Store-V2', source: { text } });
    expect(created.status).toBe(201);
    expect(created.body.slug).toBe('Pet-Store-V2');
    expect((await call('GET', `${org()}/openapi/Pet-Store-V2`)).status).toBe(200);
    expect((await folio.request('GET', `${org()}/openapi/pet-store-v2`)).status).toBe(404);
    const put = await call('PUT', `${org()}/openapi/PetStore3`, { source: { text } });
    expect(put.status).toBe(201);
    await waitComplete('Pet-Store-V2');
    await waitComplete('PetStore3');
    expect((await folio.request('DELETE', `${org()}/openapi/Pet-Store-V2`)).status).toBe(205);
    expect((await folio.request('DELETE', `${org()}/openapi/PetStore3`)).status).toBe(205);
  });

  it('refuses a body larger than the text cap allows with 413 in the error shape; a text over the cap is a 400', async () => {
    const tooBig = await folio.request('POST', `${org()}/openapi`, { slug: 'huge', source: { text: 'a'.repeat(SOURCE_BODY_LIMIT_BYTES) } });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ error: { code: 413, message: expect.any(String) } });
    // Above fastify's global 10 MiB body limit, within the route's: the text cap itself answers.
    const overCap = await folio.request('PUT', `${org()}/openapi/huge`, { source: { text: 'a'.repeat(SOURCE_TEXT_MAX_BYTES + 1) } });
    expect(overCap.status).toBe(400);
    expect(overCap.body.error).toMatchObject({ code: 400, message: expect.stringContaining('source.text must be at most') });
    expect((await folio.request('GET', `${org()}/openapi/huge`)).status).toBe(404);
  });

  it('answers 503 when Temporal is unreachable, without leaving a spec pending for a run that never comes', async () => {
    // A client of an address where nothing listens, without the SDK's retries: every call fails at once.
    const dead = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '2s', interceptors: [] }), namespace: 'default' });
    const app = await buildServer({ store: folio.store, temporal: dead, config: folio.config, logger: testLogger('no-temporal') });
    const send = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
      const res = await app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${folio.token}` } });
      return { status: res.statusCode, body: res.json() };
    };
    const unavailable = { error: { code: 503, message: expect.stringContaining('workflow service is unavailable') } };
    try {
      // A new spec (URL or text, POST or PUT) is not kept: the same request can be repeated.
      expect(await send('POST', `${org()}/openapi`, { slug: 'no-temporal', source: { url: `${server.url}/specs/swagger2.yaml` } })).toEqual({
        status: 503,
        body: unavailable,
      });
      expect((await folio.request('GET', `${org()}/openapi/no-temporal`)).status).toBe(404);
      expect(await send('PUT', `${org()}/openapi/no-temporal`, { source: { text: 'openapi: 3.1.0' } })).toEqual({ status: 503, body: unavailable });
      expect((await folio.request('GET', `${org()}/openapi/no-temporal`)).status).toBe(404);

      // An existing spec keeps its state and version; a PUT through a working Folio processes it.
      const text = readFileSync(path.join(fixtures, 'swagger2.yaml'), 'utf8');
      expect((await call('POST', `${org()}/openapi`, { slug: 'kept', source: { text } })).status).toBe(201);
      const before = await waitComplete('kept');
      const changed = text.replace(/title: .*/, 'title: Changed');
      expect(await send('PUT', `${org()}/openapi/kept`, { source: { text: changed } })).toEqual({ status: 503, body: unavailable });
      const after = (await call('GET', `${org()}/openapi/kept`)).body;
      expect(after).toMatchObject({ processingState: 'complete', lastVersion: before.lastVersion });

      // The run numbered just before Temporal refused to start it is given up, not left pending.
      const repo = folio.store.openapi;
      const spec = (await repo.get(before.id))!;
      await expect(startOpenApiProcessing({ client: dead, config: folio.config, repo }, spec, 'update')).rejects.toBeInstanceOf(
        WorkflowServiceUnavailableError,
      );
      const abandoned = (await repo.get(before.id))!;
      expect(abandoned.processRuns).toBe(spec.processRuns + 1);
      expect(abandoned.appliedRun).toBe(abandoned.processRuns);
      expect(abandoned.processingState).toBe('complete');

      expect((await call('PUT', `${org()}/openapi/kept`, { source: { text: changed } })).status).toBe(200);
      const done = await waitComplete('kept', abandoned.processRuns + 1);
      expect(done.lastVersion).not.toBe(before.lastVersion);
      expect((await call('GET', `${org()}/openapi/kept/versions/latest/content`)).body.filesystem).toEqual({ 'openapi.yaml': changed });
    } finally {
      await app.close();
      await dead.connection.close();
    }
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
    // As the platform API defines it: 205 when deleted, 204 when there was no such spec.
    expect((await folio.request('DELETE', `${org()}/openapi/made-by-put`)).status).toBe(205);
    expect(await describeRefreshSchedule(folio.client, id)).toBeNull();
    expect((await folio.request('DELETE', `${org()}/openapi/made-by-put`)).status).toBe(204);
    expect((await folio.request('DELETE', `${org()}/openapi/never-existed`)).status).toBe(204);
    expect((await folio.request('GET', `${org()}/openapi/made-by-put`)).status).toBe(404);
    expect((await folio.request('GET', `${org()}/openapi/made-by-put/versions/latest`)).status).toBe(404);
  });

  it('validates input: slug pattern, source shape, duplicates, visibility, other organizations', async () => {
    const bad = [
      { slug: 'Bad Slug', source: { url: `${server.url}/x` } },
      { slug: 'bad--slug', source: { url: `${server.url}/x` } },
      { slug: 'a'.repeat(101), source: { url: `${server.url}/x` } },
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
    expect((await folio.request('GET', '/v1/orgs/someone-else/openapi')).status).toBe(404);
  });
});
