/**
 * A worker's metrics port: a plain HTTP server answering `GET /metrics` with the Prometheus text of its registry,
 * `GET /healthz` with the process's health (200 when `health` says ok, else 503: a container health check), and 404
 * to anything else. No auth: bind it where only the scraper reaches it (HOST, a private network).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FolioMetrics } from './metrics.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** What `/healthz` answers: ok (200) or not (503), and a short word on why. */
export type HealthCheck = () => { ok: boolean; detail: string };

export async function startMetricsServer(metrics: FolioMetrics, options: { host: string; port: number; health?: HealthCheck }): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path === '/healthz' && options.health && (request.method === 'GET' || request.method === 'HEAD')) {
      const { ok, detail } = options.health();
      response.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ok' : 'unavailable', detail }));
      return;
    }
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: this port serves GET /metrics and /healthz only\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(request.method === 'HEAD' ? undefined : text),
      (err: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${(err as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
