/** The worker's metrics port answers `/healthz` from its health check: 200 when ok, 503 when not, and why. */
import { afterAll, describe, expect, it } from 'vitest';
import { FolioMetrics, startMetricsServer, type MetricsServer } from '../../src/metrics/index.js';

describe('metrics port /healthz', () => {
  const metrics = new FolioMetrics({ role: 'worker' });
  let state = { ok: false, detail: 'starting' };
  let server: MetricsServer;
  afterAll(async () => {
    await server?.close();
    metrics.close();
  });

  it('follows the health check, and serves no health check where none is given', async () => {
    server = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0, health: () => state });
    const url = `http://127.0.0.1:${server.port}/healthz`;
    let res = await fetch(url);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable', detail: 'starting' });
    state = { ok: true, detail: 'workers running' };
    res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', detail: 'workers running' });
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(200);

    const bare = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0 });
    try {
      expect((await fetch(`http://127.0.0.1:${bare.port}/healthz`)).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
