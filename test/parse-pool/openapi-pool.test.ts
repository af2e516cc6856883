/**
 * OpenAPI processing in the parse pool (`processSpecInPool`): the result equals processSpec's; the time budget
 * counts the thread's busy time (a slow server is no budget overrun), an alias bomb over it is SPEC_TOO_COMPLEX and
 * its thread is replaced; the fetch guard is enforced inside the thread (loopback refused unless allowlisted);
 * an aborted task ends its thread; a spec nested too deeply is SPEC_TOO_COMPLEX, in a thread or not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FETCH_POLICY } from '../../src/net/policy.js';
import { processSpec } from '../../src/openapi/process.js';
import { processSpecInPool } from '../../src/parse-threads/openapi.js';
import { ParsePool } from '../../src/parse-threads/pool.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';
import { startSpecServer, type SpecServer } from '../openapi/spec-server.js';

const GOOD =
  'openapi: 3.1.0\ninfo: { title: Pets, version: "1" }\npaths:\n  /pets:\n    get:\n      responses:\n        "200": { description: ok, content: { application/json: { schema: { $ref: "schemas.yaml#/Pet" } } } }\n';
const SCHEMAS = 'Pet: { type: object, properties: { name: { type: string } } }\n';

function aliasBomb(levels: number, width: number): string {
  const lines = [
    'openapi: 3.0.3',
    'info: { title: Laughs, version: "1" }',
    'paths: {}',
    'components:',
    '  schemas:',
    '    l0: &l0 { type: string, example: lol }',
  ];
  for (let i = 1; i <= levels; i++)
    lines.push(`    l${i}: &l${i} { type: object, properties: { ${Array.from({ length: width }, (_, j) => `p${j}: *l${i - 1}`).join(', ')} } }`);
  return `${lines.join('\n')}\n`;
}
const deepAllOf = (depth: number) =>
  `{"openapi":"3.0.3","info":{"title":"Deep","version":"1"},"paths":{},"components":{"schemas":{"deep":${'{"allOf":['.repeat(depth)}{"type":"string"}${']}'.repeat(depth)}}}}`;

let server: SpecServer;
const pools: ParsePool[] = [];
const pool = (options: ConstructorParameters<typeof ParsePool>[0]) => {
  const p = new ParsePool(options);
  pools.push(p);
  return p;
};

beforeAll(async () => {
  server = await startSpecServer({
    '/spec.yaml': { body: GOOD },
    '/schemas.yaml': { body: SCHEMAS },
    // Answers after 1.5 s: waiting for it is not processing time.
    '/slow/spec.yaml': (_req, res) =>
      void setTimeout(() => res.writeHead(200, { 'content-type': 'application/yaml' }).end(GOOD.replace('schemas.yaml', '../schemas.yaml')), 1500),
    '/hang.yaml': () => undefined,
  });
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  await server?.close();
});

describe('processSpecInPool', () => {
  it('gives the same result as processSpec, fetching $refs through the guard inside the thread', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 30_000, budgetClock: 'busy' });
    const options = { fetch: { timeoutMs: 5000, policy: loopbackPolicy } };
    const inThread = await processSpecInPool(p, { url: `${server.url}/spec.yaml` }, options);
    expect(inThread.ok).toBe(true);
    expect(inThread).toEqual(await processSpec({ url: `${server.url}/spec.yaml` }, options));
    if (inThread.ok) expect(Object.keys(inThread.filesystem).sort()).toEqual(['schemas.yaml', 'spec.yaml']);
  });

  it('refuses loopback inside the thread under the default policy (FETCH_ERROR, denied-address)', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 30_000, budgetClock: 'busy' });
    const before = server.hits.length;
    const result = await processSpecInPool(p, { url: `${server.url}/spec.yaml` }, { fetch: { timeoutMs: 5000, policy: DEFAULT_FETCH_POLICY } });
    expect(result).toMatchObject({ ok: false, code: 'FETCH_ERROR', retryable: false });
    expect(JSON.stringify(result)).toContain('FETCH_ALLOW_HOSTS');
    expect(server.hits.length).toBe(before);
    // A $ref from a text source to loopback is refused the same way.
    const text = GOOD.replace('schemas.yaml', `${server.url}/schemas.yaml`);
    expect(await processSpecInPool(p, { text }, { fetch: { timeoutMs: 5000 } })).toMatchObject({ ok: false, code: 'FETCH_ERROR' });
    expect(server.hits.length).toBe(before);
  });

  it('counts busy time only: a slow server is no overrun, an alias bomb is SPEC_TOO_COMPLEX and its thread is replaced', async () => {
    // The budget is half the bomb's processing time on a fast machine (about 2 s of CPU: within the node limit, a larger
    // bomb is refused for its size instead), and shorter than the slow server's answer.
    const p = pool({ threads: 1, timeBudgetMs: 1000, budgetClock: 'busy' });
    const slow = await processSpecInPool(p, { url: `${server.url}/slow/spec.yaml` }, { fetch: { timeoutMs: 10_000, policy: loopbackPolicy } });
    expect(slow).toMatchObject({ ok: true });
    const bomb = await processSpecInPool(p, { text: aliasBomb(6, 10) }, { fetch: { timeoutMs: 5000 } });
    expect(bomb).toMatchObject({ ok: false, code: 'SPEC_TOO_COMPLEX', retryable: false, errorCount: 1 });
    if (!bomb.ok) expect(bomb.errors[0]!.message).toContain('time budget of 1000 ms');
    expect(p.replaced).toBe(1);
    // The pool goes on with a new thread.
    expect((await processSpecInPool(p, { url: `${server.url}/spec.yaml` }, { fetch: { timeoutMs: 5000, policy: loopbackPolicy } })).ok).toBe(true);
  });

  it('a spec over the memory budget is SPEC_TOO_COMPLEX', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 120_000, memoryBudgetMb: 48, budgetClock: 'busy' });
    // 10 MB of JSON, 200,000 distinct objects: more than 48 MB of heap once parsed.
    const items = Array.from({ length: 200_000 }, (_, i) => ({ name: `n${i}`, value: i, tags: ['a', 'b'] }));
    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Big', version: '1' }, paths: {}, 'x-items': items });
    const bomb = await processSpecInPool(p, { text }, { fetch: { timeoutMs: 5000 } });
    expect(bomb).toMatchObject({ ok: false, code: 'SPEC_TOO_COMPLEX', retryable: false });
    if (!bomb.ok) expect(bomb.errors[0]!.message).toContain('memory budget of 48 MB');
  });

  it('an aborted task ends its thread and rejects with the abort reason', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 30_000, budgetClock: 'busy' });
    const controller = new AbortController();
    const running = processSpecInPool(
      p,
      { url: `${server.url}/hang.yaml` },
      { fetch: { timeoutMs: 60_000, policy: loopbackPolicy }, signal: controller.signal },
    );
    // Running: its thread has asked for the document.
    while (!server.hits.includes('/hang.yaml')) await new Promise((r) => setTimeout(r, 50));
    controller.abort(new Error('cancelled by test'));
    await expect(running).rejects.toThrow('cancelled by test');
    expect(p.replaced).toBe(1);
  });

  it('a spec nested too deeply is SPEC_TOO_COMPLEX, in a thread and on the calling thread', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 60_000, budgetClock: 'busy' });
    const text = deepAllOf(20_000);
    expect(await processSpecInPool(p, { text }, { fetch: { timeoutMs: 5000 } })).toMatchObject({ ok: false, code: 'SPEC_TOO_COMPLEX', retryable: false });
    const here = await processSpec({ text }, { fetch: { timeoutMs: 5000 } });
    expect(here).toMatchObject({ ok: false, code: 'SPEC_TOO_COMPLEX', errors: [{ location: '#', message: 'the specification is nested too deeply' }] });
  });
});
