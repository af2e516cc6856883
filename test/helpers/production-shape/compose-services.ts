/**
 * For each service of docker-compose.yml, what the production-shape run (cluster.ts) starts for it and how it checks
 * that it is the same software at the same version. test/unit/docker-compose.test.ts checks that this lists exactly
 * the services of the file and that each runs the same (no stand-in, nothing left unrun), and checks the pins it can
 * without the installed binaries; the production-shape run checks the rest when it starts them. Grafana is not here:
 * it is an overlay (docker-compose.grafana.yml) that no test runs.
 */
export interface ComposeServiceInTest {
  runs: 'same' | 'stand-in' | 'not run';
  what: string;
}

export const COMPOSE_SERVICES_IN_TEST: Readonly<Record<string, ComposeServiceInTest>> = {
  postgresql: {
    runs: 'same',
    what: "PostgreSQL from Debian's packages; the run checks that the server's major version (SHOW server_version) is the postgres image's",
  },
  temporal: {
    runs: 'same',
    what: 'the Temporal CLI `temporal server start-dev` (history in SQLite, Web UI on, fetched once) with the arguments of src/temporal/dev-server.ts; the run checks that the CLI installed in .tools is the temporalio/temporal image’s version',
  },
  s3: {
    runs: 'same',
    what: 'S3Proxy (src/s3-server/, filesystem backend, AWS signature v4), its /healthz polled; the image tag is S3PROXY_VERSION (unit test)',
  },
  api: { runs: 'same', what: 'two `folio api` processes behind a round robin' },
  worker: { runs: 'same', what: 'one to three `folio worker` processes, their health checks polled, their metrics ports scraped' },
  prometheus: {
    runs: 'same',
    what: "Debian's prometheus (the run checks its version against the image's) with deploy/prometheus.yml's jobs on the Folio processes' loopback ports; after the run every target was up and Folio's, the Temporal SDK's and the Grafana dashboard's metrics were scraped",
  },
};
