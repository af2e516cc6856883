/**
 * Production-shape run (issue 30): one PostgreSQL server, one Temporal dev server, one S3-compatible server (S3Proxy)
 * for every blob, 2 `folio api` processes (requests round robin) and N `folio worker` processes for N = 1, 2, 3 in
 * turn, driving git imports, change requests (created, a page edited, merged), git exports, site publishes, OpenAPI
 * imports and website imports (a loopback site) over several organizations; in the last phase (3 workers) one worker
 * is SIGKILLed and started again, and one API process too (`--workers 1,2,3,3` measures a 3-worker phase
 * undisturbed before it). `--embedded`: the same scenario against one `folio start` with the embedded defaults
 * (PGlite, blobs in the database, its own Temporal dev server, one worker and one API: one phase), its worker child
 * SIGKILLed a third of the way through and `folio start` itself SIGKILLed and started again at two thirds.
 * Every operation is then accounted for from the store and the git server: done, lost or duplicated. Prints one
 * JSON object: the totals, per worker count the throughput (operations per minute), median and p95 latency, and the
 * load average before and after.
 * The cluster also runs Prometheus on every Folio process; its findings are `deploymentChecks` (problems: [] when every
 * target was up and every expected metric scraped).
 * Needs `npm run build` (the processes run dist/src/cli/folio.js), Debian's PostgreSQL and Prometheus, Java (S3Proxy).
 * Run: node dist/bench/production-shape.js [--embedded] [--operations 300] [--workers 1,2,3] [--organizations 3] [--lanes 10]
 */
import os from 'node:os';
import { arg } from './_helpers.js';
import { runProductionShape } from '../test/helpers/production-shape/scenario.js';

const embedded = process.argv.includes('--embedded');
const result = await runProductionShape({
  mode: embedded ? 'embedded' : 'cluster',
  operations: Number(arg('operations', '300')),
  workers: arg('workers', embedded ? '1' : '1,2,3')
    .split(',')
    .map(Number),
  organizations: Number(arg('organizations', '3')),
  lanes: Number(arg('lanes', '10')),
  operationTimeoutMs: Number(arg('timeout-ms', '600000')),
  log: (line) => process.stderr.write(`production-shape: ${line}\n`),
});
process.stdout.write(JSON.stringify({ benchmark: 'production-shape', cpus: os.cpus().length, ...result }) + '\n');
