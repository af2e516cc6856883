import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../deps.js';
import { STORE_RETRY_AFTER_SECONDS } from '../http-errors.js';

/** `GET /healthz` (no auth): 200 when the store and Temporal answer, 503 (with `Retry-After`) naming the failing part. */
export function healthRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get('/healthz', async (_request, reply) => {
    const check = async (fn: () => Promise<unknown>) => {
      try {
        await Promise.race([fn(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000))]);
        return 'ok';
      } catch {
        return 'unavailable';
      }
    };
    const [store, temporal] = await Promise.all([check(() => deps.store.health()), check(() => deps.temporal.workflowService.getSystemInfo({}))]);
    const ok = store === 'ok' && temporal === 'ok';
    if (!ok) void reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', temporal, store });
  });
}
