import type { FastifyError, FastifyInstance } from 'fastify';
import { redact } from '../redact.js';
import { statusOf } from './http-errors.js';

/** Every error leaves as `{ error: { code: <http status>, message } }`, without stack traces or credentials. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
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
