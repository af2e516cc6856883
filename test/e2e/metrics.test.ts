/**
 * Issue 30 ("Done when", metrics): `folio start` (the embedded database server, Temporal, a worker and the API as
 * processes) with the worker's metrics port and the Temporal SDK's metrics port on; a git import of a repository with
 * two pathological pages (over a 2 s parse budget: their threads are terminated), a git import refused by the fetch
 * guard (a private address), then the API's `/metrics`, the worker's `/metrics` and the SDK's exporter scraped: each
 * metric of docs/operations.md#metrics is there, the counters and histograms above zero.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, folioEntry, gitImport, startFolioService, stopFolioService, type FolioService } from '../helpers/folio-service.js';
import { freePort } from '../helpers/free-port.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { HOSTILE_PAGES, normalRepository } from '../helpers/hostile-pages.js';

/** The samples of a Prometheus text exposition: `name{labels} value` → value, by name then label string. */
function samples(text: string): Map<string, Array<{ labels: string; value: number }>> {
  const out = new Map<string, Array<{ labels: string; value: number }>>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || line.startsWith('#')) continue;
    const list = out.get(m[1]!) ?? [];
    list.push({ labels: m[2] ?? '', value: Number(m[3]) });
    out.set(m[1]!, list);
  }
  return out;
}

/** The sum of a metric's samples whose labels contain every one of `having`. */
function total(s: ReturnType<typeof samples>, name: string, having: string[] = []): number {
  return (s.get(name) ?? []).filter((x) => having.every((h) => x.labels.includes(h))).reduce((n, x) => n + x.value, 0);
}

async function scrape(url: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe.runIf(existsSync(folioEntry) && process.platform === 'linux')('metrics of the API, the worker and the Temporal SDK', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'folio-metrics-'));
  let server: GitServer;
  let folio: FolioService;
  let workerPort: number;
  let temporalPort: number;

  beforeAll(async () => {
    server = await startGitServer();
    const dir = path.join(work, 'repo');
    // Two pages that each parse for over 30 s on a quiet machine (15 times the budget below), so both overrun it on any
    // machine, fast or loaded (a page near the budget, such as brackets.md at about 1.2 s, would make the count a race).
    const files = { ...normalRepository(12), 'strong.md': HOSTILE_PAGES['strong.md']!, 'star-a.md': HOSTILE_PAGES['star-a.md']! };
    files['SUMMARY.md'] += '* [Strong](strong.md)\n* [Star](star-a.md)\n';
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    await server.createBareRepo('docs', { fromDir: dir });
    [workerPort, temporalPort] = [await freePort(), await freePort()];
    folio = await startFolioService(path.join(work, 'data'), {
      FOLIO_WORKER_METRICS_PORT: String(workerPort),
      FOLIO_TEMPORAL_METRICS_PORT: String(temporalPort),
      FOLIO_PARSE_TIME_BUDGET_MS: '2000',
    });
  });

  afterAll(async () => {
    if (folio) await stopFolioService(folio);
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('after a git import and a refused one, every metric is scraped with a non-zero count', async () => {
    const api = new ApiClient(folio.api, folio.token);
    const space = await api.call('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Metrics' });
    const done = await gitImport(api, space.id, server.url('docs'), 240_000);
    expect(done?.status, JSON.stringify(done)).toBe('succeeded');
    const other = await api.call('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Refused' });
    const refused = await gitImport(api, other.id, 'http://10.255.255.1/private.git', 240_000);
    expect(refused?.status, JSON.stringify(refused)).toBe('failed');
    expect(refused?.code).toBe('FETCH_PRIVATE_ADDRESS_DENIED');

    const apiText = await scrape(`${folio.api}/metrics`);
    expect(apiText.status).toBe(200);
    expect(apiText.type).toMatch(/^text\/plain/);
    const a = samples(apiText.text);
    expect(total(a, 'folio_http_requests_total', ['route="/v1/spaces/:spaceId/git/import"', 'status="204"'])).toBeGreaterThanOrEqual(2);
    expect(total(a, 'folio_http_requests_total', ['route="/v1/spaces/:spaceId/git/info"', 'status="200"'])).toBeGreaterThan(0);
    expect(total(a, 'folio_http_request_duration_seconds_count')).toBeGreaterThan(0);
    // No id and no URL in a label: the route's template only.
    expect(apiText.text).not.toContain(space.id);
    expect(a.has('folio_parse_pool_threads')).toBe(true);
    expect(total(a, 'folio_process_resident_memory_bytes')).toBeGreaterThan(0);

    const workerText = await scrape(`http://127.0.0.1:${workerPort}/metrics`);
    expect(workerText.status).toBe(200);
    const w = samples(workerText.text);
    process.stdout.write(
      `${workerText.text
        .split('\n')
        .filter((l) => /^folio_(operations|pages|bytes|fetch|parse_pool)/.test(l))
        .join('\n')}\n`,
    );
    expect(total(w, 'folio_operations_total', ['pipeline="git-import"', 'outcome="success"'])).toBe(1);
    expect(total(w, 'folio_operations_total', ['pipeline="git-import"', 'outcome="failure"'])).toBe(1);
    expect(total(w, 'folio_operation_duration_seconds_count', ['pipeline="git-import"'])).toBeGreaterThan(0);
    expect(total(w, 'folio_operation_duration_seconds_sum', ['pipeline="git-import"'])).toBeGreaterThan(0);
    expect(total(w, 'folio_pages_processed_total', ['pipeline="git-import"'])).toBe(14);
    expect(total(w, 'folio_bytes_processed_total', ['pipeline="git-import"'])).toBeGreaterThan(1000);
    expect(total(w, 'folio_fetch_refusals_total', ['code="FETCH_PRIVATE_ADDRESS_DENIED"'])).toBeGreaterThan(0);
    expect(total(w, 'folio_activity_attempts_total', ['activity="gitImportOperation"'])).toBeGreaterThan(0);
    expect(total(w, 'folio_parse_pool_threads_terminated_total', ['pool="parse"'])).toBeGreaterThanOrEqual(2);
    expect(total(w, 'folio_parse_pool_threads', ['pool="parse"'])).toBeGreaterThan(0);
    for (const gauge of ['folio_parse_pool_queue_depth', 'folio_parse_pool_busy_threads'])
      expect(
        w.get(gauge)?.some((x) => x.labels.includes('pool="parse"')),
        gauge,
      ).toBe(true);
    // Only /metrics and the health check on that port; the worker polls, so it is healthy.
    expect((await fetch(`http://127.0.0.1:${workerPort}/`)).status).toBe(404);
    const health = await fetch(`http://127.0.0.1:${workerPort}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', detail: 'workers running, running' });

    const sdkText = await scrape(`http://127.0.0.1:${temporalPort}/metrics`);
    expect(sdkText.status).toBe(200);
    const t = samples(sdkText.text);
    const completed = [...t.keys()].filter((k) => /^temporal_workflow_completed/.test(k));
    expect(completed.length, [...t.keys()].join(' ')).toBeGreaterThan(0);
    expect(completed.reduce((n, k) => n + total(t, k), 0)).toBeGreaterThan(0);
    expect([...t.keys()].some((k) => k.startsWith('temporal_activity_execution_latency'))).toBe(true);
  });
});
