/**
 * Issue 10, item 5 for OpenAPI: untrusted specs are processed off the worker's event loop, in a thread of the
 * OpenAPI pool with a time and a memory budget (small ones here). A YAML "billion laughs" spec (under the alias
 * expansion limit, but a million nodes for the validator to walk) and a deeply nested one (a 100,000-deep `allOf`
 * chain) are processed through the real workflow at the same time as a spec with external `$ref`s: both end with
 * the non-retryable SPEC_TOO_COMPLEX, their previous version is kept intact, the other spec succeeds, and the
 * event loop of the worker (this process) stays responsive.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIds } from '../../src/temporal/contract/index.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { startSpecServer, type SpecServer } from '../openapi/spec-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '../openapi/fixtures');

/** `levels` levels of `width` aliases to the level below: width^levels schema nodes from under 1 KB of YAML. */
function aliasBomb(levels: number, width: number): string {
  const lines = [
    'openapi: 3.0.3',
    'info: { title: Laughs, version: "2" }',
    'paths: {}',
    'components:',
    '  schemas:',
    '    l0: &l0 { type: string, example: lol }',
  ];
  for (let i = 1; i <= levels; i++)
    lines.push(`    l${i}: &l${i} { type: object, properties: { ${Array.from({ length: width }, (_, j) => `p${j}: *l${i - 1}`).join(', ')} } }`);
  return `${lines.join('\n')}\n`;
}

/** A schema that is an `allOf` chain `depth` deep (about 12 bytes a level). */
function deepAllOf(depth: number): string {
  return `{"openapi":"3.0.3","info":{"title":"Deep","version":"2"},"paths":{},"components":{"schemas":{"deep":${'{"allOf":['.repeat(depth)}{"type":"string"}${']}'.repeat(depth)}}}}`;
}

const GOOD = (title: string) => `openapi: 3.1.0\ninfo: { title: ${title}, version: "1" }\npaths: {}\n`;

let folio: TestFolio;
let server: SpecServer;
const org = () => `/v1/orgs/${folio.organizationId}`;

function filesUnder(dir: string, prefix = ''): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, `${prefix}${name}/`));
    else out.push([`${prefix}${name}`, readFileSync(full, 'utf8')]);
  }
  return out;
}

/** Polls the spec until run `minRuns` has been applied. */
async function waitComplete(slug: string, minRuns: number): Promise<any> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await folio.request('GET', `${org()}/openapi/${slug}`);
    expect(res.status).toBe(200);
    const row = (await folio.store.openapi.get(res.body.id))!;
    if (res.body.processingState === 'complete' && row.appliedRun >= minRuns && row.appliedRun >= row.processRuns) return res.body;
    if (Date.now() > deadline) throw new Error(`spec ${slug} did not complete: ${JSON.stringify(res.body).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  const routes: Record<string, import('../openapi/spec-server.js').Route> = {};
  for (const [rel, text] of filesUnder(fixtures)) routes[`/specs/${rel}`] = { body: text };
  server = await startSpecServer(routes);
  folio = await startFolio({
    env: {
      FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
      FOLIO_PARSE_THREADS: '2',
      FOLIO_OPENAPI_TIME_BUDGET_MS: '1000',
      FOLIO_OPENAPI_MEMORY_BUDGET_MB: '192',
      OPENAPI_REFRESH_INTERVAL: '1h',
    },
  });
});

afterAll(async () => {
  await folio?.stop();
  await server?.close();
});

describe('OpenAPI specs are processed off the event loop, within budgets', () => {
  it('an alias bomb and a deeply nested spec end with SPEC_TOO_COMPLEX, keep their last version, and do not block the worker or another spec', async () => {
    // A good first version of each spec that will go bad.
    for (const slug of ['laughs', 'deep']) {
      expect((await folio.request('POST', `${org()}/openapi`, { slug, source: { text: GOOD(slug) } })).status).toBe(201);
    }
    const before: Record<string, any> = {};
    const contentBefore: Record<string, unknown> = {};
    for (const slug of ['laughs', 'deep']) {
      before[slug] = await waitComplete(slug, 1);
      expect(before[slug].lastVersion).toEqual(expect.any(String));
      contentBefore[slug] = (await folio.request('GET', `${org()}/openapi/${slug}/versions/latest/content`)).body;
    }

    expect((await folio.request('PUT', `${org()}/openapi/deep`, { source: { text: deepAllOf(100_000) } })).status).toBe(200);
    expect((await folio.request('PUT', `${org()}/openapi/laughs`, { source: { text: aliasBomb(6, 10) } })).status).toBe(200);
    // Processed at the same time: a spec whose external `$ref`s the thread fetches through the guard.
    expect((await folio.request('POST', `${org()}/openapi`, { slug: 'split', source: { url: `${server.url}/specs/split/openapi.yaml` } })).status).toBe(201);
    // Watched from here, while the specs are processed (the alias bomb alone takes seconds of CPU, 12 s on the
    // event loop before this change): storing a 1.2 MB request body in this test's in-process PGlite is not.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const [laughs, deep, split] = await Promise.all([waitComplete('laughs', 2), waitComplete('deep', 2), waitComplete('split', 1)]);
    delay.disable();

    for (const [slug, spec] of [
      ['laughs', laughs],
      ['deep', deep],
    ] as const) {
      expect(spec.lastProcessErrorCode, slug).toBe('SPEC_TOO_COMPLEX');
      expect(spec.processingState).toBe('complete');
      expect(spec.lastProcessedErrors[0].message, slug).toMatch(/time budget of 1000 ms|memory budget of 192 MB|nested too deeply/);
      // The previous version is kept and still served unchanged.
      expect(spec.lastVersion).toBe(before[slug].lastVersion);
      expect((await folio.request('GET', `${org()}/openapi/${slug}/versions`)).body.items).toHaveLength(1);
      expect((await folio.request('GET', `${org()}/openapi/${slug}/versions/latest/content`)).body).toEqual(contentBefore[slug]);
      // Not retryable: the processing activity ran once.
      const history = await folio.client.workflow.getHandle(workflowIds.openapiProcess(spec.id, 2)).fetchHistory();
      const scheduled = history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'openapiProcess');
      const started = history.events!.filter(
        (e) =>
          e.activityTaskStartedEventAttributes && scheduled.some((s) => String(s.eventId) === String(e.activityTaskStartedEventAttributes!.scheduledEventId)),
      );
      expect(started.map((e) => e.activityTaskStartedEventAttributes!.attempt)).toEqual([1]);
    }

    expect(split.lastProcessErrorCode).toBeUndefined();
    const content = await folio.request('GET', `${org()}/openapi/split/versions/latest/content`);
    expect(Object.keys(content.body.filesystem).sort()).toEqual(['../shared/errors.json', 'openapi.yaml', 'schemas/common.yaml', 'schemas/pet.yaml']);

    // The worker (this process) kept its event loop: no turn blocked for anything near the processing of these specs.
    expect(delay.max / 1e6).toBeLessThan(1000);
  });
});
