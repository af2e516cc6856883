import type { FastifyError, FastifyInstance } from 'fastify';
import { redact } from '../redact.js';
import { isTemporalUnavailable } from '../temporal/client/unavailable.js';
import { isStoreTrouble, statusOf, STORE_RETRY_AFTER_SECONDS } from './http-errors.js';

/**
 * Every error leaves as `{ error: { code: <http status>, message } }`, without stack traces or credentials. A
 * database or a Temporal service that is unreachable or overloaded is 503 with `Retry-After` (the request can be
 * sent again as is: a git request or a merge sent twice runs once).
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // Passing trouble of a dependency: 503 with Retry-After, the request can be sent again as is.
    const unavailable = err.validation ? null : isStoreTrouble(err) ? 'the database' : isTemporalUnavailable(err) ? 'the workflow service' : null;
    if (unavailable) {
      const part = unavailable === 'the database' ? 'the database' : 'Temporal';
      request.log.warn({ error: { message: redact(err.message), code: (err as { code?: unknown }).code } }, `request refused: ${part} is unavailable`);
      void reply
        .status(503)
        .header('retry-after', String(STORE_RETRY_AFTER_SECONDS))
        .send({ error: { code: 503, message: `${unavailable} is unavailable or overloaded; retry later` } });
      return;
    }
    const status = err.validation ? 400 : statusOf(err);
    let message = status >= 500 ? 'internal error' : redact(err.message || 'error');
    if (err.validation) message = `invalid request: ${redact(err.message)}`;
    if (status >= 500) request.log.error({ err: { message: redact(err.message), code: (err as { code?: string }).code } }, 'request failed');
    void reply.status(status).send({ error: { code: status, message } });
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ error: { code: 404, message: `no route for ${request.method} ${request.url.split('?')[0]}` } });
  });
}
