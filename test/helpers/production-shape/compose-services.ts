/**
 * For each service of docker-compose.yml, what the production-shape run (cluster.ts) starts in its place: the same
 * software, a stand-in, or nothing. test/unit/docker-compose.test.ts checks that this lists exactly the services of
 * the file, so a service added to the file must say here whether anything runs it; the stand-ins are the gap
 * between what is deployed and what is tested.
 */
export interface ComposeServiceInTest {
  runs: 'same' | 'stand-in' | 'not run';
  what: string;
}

export const COMPOSE_SERVICES_IN_TEST: Readonly<Record<string, ComposeServiceInTest>> = {
  postgresql: {
    runs: 'same',
    what: "PostgreSQL from Debian's packages (the major version of the machine's, 15 on Debian 12; the file pins postgres:16)",
  },
  'temporal-schema': { runs: 'not run', what: 'nothing: the Temporal dev server sets up its own schema' },
  temporal: {
    runs: 'stand-in',
    what: 'the Temporal dev server (`temporal server start-dev`: the same server in one process, on SQLite, its version the CLI’s) for temporalio/server on PostgreSQL',
  },
  'temporal-ui': { runs: 'not run', what: 'nothing: the dev server runs headless' },
  s3: {
    runs: 'stand-in',
    what: 'S3Proxy (filesystem backend, src/s3-server/) for SeaweedFS: the s3 blob store is tested against S3Proxy only (building SeaweedFS took 10 minutes of CPU and 3.7 GB of Go modules)',
  },
  api: { runs: 'same', what: 'two `folio api` processes behind a round robin' },
  worker: { runs: 'same', what: 'one to three `folio worker` processes, their health checks polled' },
  prometheus: { runs: 'not run', what: 'nothing; test/e2e/metrics.test.ts scrapes the /metrics endpoints Prometheus is configured to scrape' },
  grafana: { runs: 'not run', what: 'nothing: no test loads the dashboard' },
};
