/**
 * The page pool as the worker and the API build it from the configuration (`parsePoolOptions`) counts a task's busy
 * time against FOLIO_PARSE_TIME_BUDGET_MS, not the wall time: its threads run at FOLIO_PARSE_NICE (19 by default), so
 * on a loaded machine a small page's task (or the first task of a thread, which loads its module family) can wait
 * for the CPU longer than the budget. Counted on the wall clock, a production-shape run under `stress-ng --cpu 2`
 * ended publishes with PARSE_BUDGET_EXCEEDED and a website import with WEBIMPORT_NO_PAGES (its start page taken
 * for unreadable). Here a task that waits without using the CPU (an OpenAPI `$ref` answered after longer than the
 * budget) stands for the waiting; a page that does use the CPU past the budget is still ended
 * (pathological-pages.e2e.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePoolOptions } from '../../src/parse-pool/from-config.js';
import { processSpecInPool } from '../../src/parse-threads/openapi.js';
import { ParsePool } from '../../src/parse-threads/pool.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';
import { startSpecServer, type SpecServer } from '../openapi/spec-server.js';

const BUDGET_MS = 3000;
const SPEC = 'openapi: 3.1.0\ninfo: { title: Pets, version: "1" }\npaths: {}\n';

let server: SpecServer;
let pool: ParsePool;

beforeAll(async () => {
  server = await startSpecServer({
    // Answers after twice the budget: waiting for it is not parsing time.
    '/slow.yaml': (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'application/yaml' }).end(SPEC), 2 * BUDGET_MS),
  });
  const options = parsePoolOptions({ parseThreads: 1, parseTimeBudgetMs: BUDGET_MS, parseMemoryBudgetMb: 256, parseQueuePerOrg: 100, parseNice: 19 });
  pool = new ParsePool(options);
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
});

describe('the page pool built from the configuration', () => {
  it('does not end a task that waits longer than the time budget without using the CPU', async () => {
    const result = await processSpecInPool(pool, { url: `${server.url}/slow.yaml` }, { fetch: { timeoutMs: 10 * BUDGET_MS, policy: loopbackPolicy } });
    expect(result).toMatchObject({ ok: true });
    expect(pool.replaced).toBe(0);
  });
});
