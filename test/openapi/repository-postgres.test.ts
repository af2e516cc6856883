import { afterAll, describe, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { postgresUnavailableReason, startPostgres } from '../helpers/postgres.js';
import { defineRepositorySuite } from './repository-suite.js';

const server = await startPostgres();

afterAll(async () => {
  await server?.stop();
});

if (server) {
  defineRepositorySuite('OpenAPI repository on a PostgreSQL server (pg)', () => openStore({ databaseUrl: server.url, poolSize: 4 }));
} else {
  describe.skip(`OpenAPI repository on a PostgreSQL server: ${postgresUnavailableReason}`, () => {
    it('needs a PostgreSQL server', () => {});
  });
}
