import type { FastifyInstance } from 'fastify';
import type { FolioMetrics } from '../../metrics/index.js';

/**
 * `GET /metrics` (no auth, like `/healthz`): the API's Prometheus metrics, answering only that. Each HTTP request
 * is counted by its route's template (never its URL: it may carry ids or secrets) and status; a request that
 * matched no route counts as `unmatched`.
 */
export function metricsRoutes(app: FastifyInstance, metrics: FolioMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', async (_request, reply) => {
    const text = await metrics.text();
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
