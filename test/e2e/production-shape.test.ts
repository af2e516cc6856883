/**
 * Issue 30 ("Done when", production shape), small: the deployment of bench/production-shape.ts — the services of
 * docker-compose.yml at its versions: PostgreSQL, the Temporal dev server with its Web UI, S3Proxy holding the blobs,
 * Prometheus scraping every process, 2 `folio api` processes round robin, `folio worker` processes as separate
 * processes — with 1 then 2 workers, 24 git imports, change requests, exports, publishes, OpenAPI imports and
 * website imports over 2 organizations; in the 2-worker phase a worker is SIGKILLed and started again, and an API
 * process too; every git import is sent twice (a client's retry through the other API). Every operation is done
 * exactly once: none lost, none duplicated, each space's primary revision the client's last change. No timing is
 * asserted. After the run, Prometheus's API shows every target was up and Folio's, the Temporal SDK's and the
 * Grafana dashboard's metrics scraped (deployment.ts `checks`). Requires `npm run build`.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { folioEntry } from '../helpers/folio-service.js';
import { KINDS, runProductionShape } from '../helpers/production-shape/scenario.js';

describe.runIf(existsSync(folioEntry) && existsSync('/usr/lib/postgresql'))(
  'production shape: separate API and worker processes on PostgreSQL, Temporal and S3',
  () => {
    it('accounts for every operation: done once, none lost, none duplicated, through a SIGKILLed worker and API process', async () => {
      const result = await runProductionShape({
        operations: 24,
        workers: [1, 2],
        organizations: 2,
        lanes: 3,
        operationTimeoutMs: 300_000,
        // A git import or export whose worker was killed is retried after 10 s without a heartbeat, not 60 s.
        settings: { FOLIO_GIT_HEARTBEAT_TIMEOUT_MS: '10000' },
        log: (line) => process.stderr.write(`production-shape: ${line}\n`),
      });
      process.stderr.write(`${JSON.stringify(result)}\n`);
      expect(result.problems).toEqual([]);
      expect(result.spaceProblems).toEqual([]);
      expect(result.deploymentChecks.problems).toEqual([]);
      expect({ operations: result.operations, done: result.done, lost: result.lost, duplicated: result.duplicated }).toEqual({
        operations: 24,
        done: 24,
        lost: 0,
        duplicated: 0,
      });
      // Each kind ran, and the 2-worker phase went through its disruptions.
      for (const kind of KINDS) expect(result.phases.every((p) => p.byKind[kind]!.count > 0)).toBe(true);
      expect(result.phases[1]!.disruptions.filter((d) => d.startsWith('SIGKILL'))).toHaveLength(2);
    }, 1_200_000);
  },
);
