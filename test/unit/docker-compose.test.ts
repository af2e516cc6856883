/**
 * docker-compose.yml cannot run on the test machines (no Docker), so this checks it against the code: every variable
 * it gives Folio is one Folio reads, the image holds every path Folio reads at run time and the Debian packages a
 * worker runs, every long-running service has a health check that can fail, the Folio processes share one blob store,
 * and every service in it is software the production-shape run starts too (test/helpers/production-shape/
 * compose-services.ts), configured and pinned as the code runs it: Temporal with src/temporal/dev-server.ts's
 * arguments and the CLI version .tools installs, S3Proxy at S3PROXY_VERSION with src/s3-server/server.ts's settings,
 * Prometheus with deploy/prometheus.yml. The pins that need the installed binaries (PostgreSQL's major version, the
 * CLI's and Prometheus's versions) are checked by the production-shape run (cluster.ts, prometheus.ts). Grafana is an
 * overlay (docker-compose.grafana.yml) that provisions the dashboard.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/config/variables.js';
import { loadConfig } from '../../src/config/config.js';
import { projectRoot } from '../../src/project-root.js';
import { S3PROXY_VERSION } from '../../src/s3-server/install.js';
import { S3PROXY_SETTINGS } from '../../src/s3-server/server.js';
import { debianPackage, RUNTIME_REQUIREMENTS } from '../../src/system-packages.js';
import { TEMPORAL_CLI_PACKAGE } from '../../src/temporal/binaries.js';
import { devServerArgs } from '../../src/temporal/dev-server.js';
import { composeImage, loadCompose, type ComposeService as Service } from '../helpers/production-shape/compose-file.js';
import { COMPOSE_SERVICES_IN_TEST } from '../helpers/production-shape/compose-services.js';
import { dashboardMetricNames, scrapeJobs } from '../helpers/production-shape/prometheus.js';

const root = projectRoot();
const compose = loadCompose();
const services = compose.services;
const folioServices = Object.entries(services).filter(([, s]) => s.build?.dockerfile_inline !== undefined);
const dockerfile = folioServices[0]?.[1].build?.dockerfile_inline ?? '';

/** The value a `${NAME:-default}` / `${NAME:?message}` reference takes in this test: a sample for the required ones. */
function resolve(value: string): string {
  return String(value).replace(/\$\{([A-Z0-9_]+)(?::?[-?]([^}]*))?\}/g, (_m, _name: string, fallback?: string) =>
    fallback !== undefined && !/^set /.test(fallback) ? fallback : 'sample-value-1234',
  );
}

function healthText(s: Service): string {
  const test = s.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

describe('docker-compose.yml against the code', () => {
  it('has the Folio services (API, workers) built from one image', () => {
    expect(folioServices.map(([name]) => name).sort()).toEqual(['api', 'worker']);
    expect(new Set(folioServices.map(([, s]) => s.build?.dockerfile_inline)).size).toBe(1);
  });

  it('gives Folio only variables it reads, with values loadConfig accepts', () => {
    const known = new Set<string>(CONFIG_VARIABLES);
    for (const [name, s] of folioServices) {
      const env = s.environment ?? {};
      const unknown = Object.keys(env).filter((k) => !known.has(k));
      expect(unknown, `${name} sets variables Folio does not read`).toEqual([]);
      const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, resolve(v)]));
      expect(() => loadConfig(resolved), name).not.toThrow();
    }
  });

  it('copies into the image every path Folio reads at run time', () => {
    const copied = new Set([...dockerfile.matchAll(/^\s*COPY\s+(.+?)\s+\S+\s*$/gm)].flatMap((m) => m[1]!.split(/\s+/)).map((p) => p.replace(/\/$/, '')));
    const tsconfig = JSON.parse(readFileSync(path.join(root, 'tsconfig.json'), 'utf8')) as { include: string[] };
    // package.json and tsconfig.json mark the project root (src/project-root.ts); the lock file keys the parse cache
    // (src/parse-cache/converter-version.ts); templates/ holds the built-in templates (src/templates/catalog.ts).
    const needed = ['package.json', 'package-lock.json', 'tsconfig.json', ...tsconfig.include, 'templates'];
    for (const p of needed) {
      expect(existsSync(path.join(root, p)), p).toBe(true);
      expect(copied.has(p), `the image does not copy ${p}`).toBe(true);
    }
    expect(readFileSync(path.join(root, 'src', 'templates', 'catalog.ts'), 'utf8')).toContain("path.join(projectRoot(), 'templates')");
  });

  it('installs the Debian packages a worker runs', () => {
    const installed = new Set([...dockerfile.matchAll(/apt-get install[^\n&]*/g)].flatMap((m) => m[0].split(/\s+/)));
    for (const requirement of RUNTIME_REQUIREMENTS) expect(installed.has(debianPackage(requirement)), requirement).toBe(true);
  });

  it('gives every long-running service a health check that can fail', () => {
    for (const [name, s] of Object.entries(services)) {
      if (s.restart === 'no') continue;
      const text = healthText(s);
      expect(text, `${name} has no health check`).not.toBe('');
      expect(text, `${name}'s health check always passes`).not.toMatch(/kill -0|^\s*(CMD-SHELL\s+)?(true|exit 0)\s*$/);
    }
    const api = services.api!;
    expect(healthText(api)).toContain(`127.0.0.1:${resolve(api.environment?.PORT ?? '8080')}/healthz`);
    const worker = services.worker!;
    expect(healthText(worker)).toContain(`127.0.0.1:${worker.environment!.FOLIO_WORKER_METRICS_PORT}/healthz`);
  });

  it('shares one S3 blob store among the Folio processes, served by the s3 service', () => {
    for (const [name, s] of folioServices) {
      const config = loadConfig(Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, resolve(v)])));
      expect(config.blobStore, name).toBe('s3');
      expect(new URL(config.s3!.endpoint!).hostname, name).toBe('s3');
    }
    expect(services.s3).toBeDefined();
  });

  it('lists every service as software the production-shape run starts too: the same, no stand-in, nothing unrun', () => {
    expect(Object.keys(services).sort()).toEqual(Object.keys(COMPOSE_SERVICES_IN_TEST).sort());
    for (const [name, entry] of Object.entries(COMPOSE_SERVICES_IN_TEST)) expect(entry.runs, name).toBe('same');
  });

  it("pins PostgreSQL by major version (the production-shape run checks it against the server's)", () => {
    expect(composeImage('postgresql')).toEqual({ name: 'postgres', tag: expect.stringMatching(/^\d+$/) });
    const env = services.postgresql!.environment ?? {};
    const folio = new URL(folioServices[0]![1].environment!.DATABASE_URL!);
    expect([folio.hostname, folio.username, folio.password, folio.pathname]).toEqual([
      'postgresql',
      env.POSTGRES_USER,
      env.POSTGRES_PASSWORD,
      `/${env.POSTGRES_DB}`,
    ]);
  });

  it('runs Temporal as the CLI image of the version .tools installs, with the arguments Folio gives the dev server', () => {
    const pinned = /==(\S+)$/.exec(TEMPORAL_CLI_PACKAGE)?.[1];
    expect(composeImage('temporal')).toEqual({ name: 'temporalio/temporal', tag: pinned });
    const t = services.temporal!;
    const command = t.command as string[];
    const dbFile = command[command.indexOf('--db-filename') + 1]!;
    expect(command).toEqual(devServerArgs({ binary: 'temporal', ip: '0.0.0.0', port: 7233, uiPort: 8233, dbFile, logLevel: 'warn' }));
    expect(command).not.toContain('--headless');
    // The history persists: the SQLite file is on a named volume.
    const volume = (t.volumes ?? []).map((v) => v.split(':')).find(([, mount]) => dbFile.startsWith(`${mount}/`));
    expect(volume?.[0] && compose.volumes && volume[0] in compose.volumes, `${dbFile} is not on a named volume`).toBe(true);
    expect(t.ports).toEqual(expect.arrayContaining(['7233:7233', '8233:8233']));
    expect(healthText(t)).toMatch(/temporal operator cluster health --address 127\.0\.0\.1:7233 \| grep -q SERVING/);
    expect(folioServices[0]![1].environment!.TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it("runs S3Proxy's image of S3PROXY_VERSION, configured as src/s3-server/server.ts configures it", () => {
    expect(composeImage('s3')).toEqual({ name: 'andrewgaul/s3proxy', tag: S3PROXY_VERSION });
    const env = services.s3!.environment ?? {};
    // The image's variables are the properties' names (run-docker-container.sh): s3proxy.authorization ← S3PROXY_AUTHORIZATION.
    for (const [property, value] of Object.entries(S3PROXY_SETTINGS)) expect(env[property.toUpperCase().replace(/[.-]/g, '_')], property).toBe(value);
    const folio = folioServices[0]![1].environment!;
    expect(env.S3PROXY_IDENTITY).toBe(folio.FOLIO_S3_ACCESS_KEY_ID);
    expect(env.S3PROXY_CREDENTIAL).toBe(folio.FOLIO_S3_SECRET_ACCESS_KEY);
    expect(new URL(env.S3PROXY_ENDPOINT!).port).toBe(new URL(folio.FOLIO_S3_ENDPOINT!).port);
    expect(services.s3!.volumes).toContain(`s3-data:${env.JCLOUDS_FILESYSTEM_BASEDIR}`);
    expect(healthText(services.s3!)).toContain(`/dev/tcp/127.0.0.1/${new URL(env.S3PROXY_ENDPOINT!).port}`);
    expect(healthText(services.s3!)).toContain('GET /healthz');
  });

  it("runs Prometheus on deploy/prometheus.yml, each job a Folio service's port", () => {
    expect(composeImage('prometheus')).toEqual({ name: 'prom/prometheus', tag: expect.stringMatching(/^v\d+\.\d+\.\d+$/) });
    expect(services.prometheus!.volumes).toContain('./deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
    expect(scrapeJobs().map((j) => `${j.job} ${j.service} ${j.variable}`)).toEqual([
      'folio-api api PORT',
      'folio-worker worker FOLIO_WORKER_METRICS_PORT',
      'temporal-sdk worker FOLIO_TEMPORAL_METRICS_PORT',
    ]);
  });

  it("keeps Grafana in an overlay that provisions the dashboard, whose Folio metrics are Folio's", () => {
    expect(services.grafana).toBeUndefined();
    const overlay = loadCompose('docker-compose.grafana.yml');
    expect(Object.keys(overlay.services)).toEqual(['grafana']);
    const mounts = (overlay.services.grafana!.volumes ?? []).map((v) => v.split(':')[0]!);
    expect(mounts.sort()).toEqual(['./deploy/grafana/folio.json', './deploy/grafana/provisioning.yml', './deploy/grafana/provisioning.yml']);
    for (const m of mounts) expect(existsSync(path.join(root, m)), m).toBe(true);
    expect(overlay.services.grafana!.depends_on).toEqual({ prometheus: { condition: 'service_healthy' } });
    const registry = readFileSync(path.join(root, 'src', 'metrics', 'metrics.ts'), 'utf8');
    const names = dashboardMetricNames();
    expect(names.length).toBeGreaterThan(10);
    for (const name of names.filter((n) => n.startsWith('folio_') && !/^folio_(process|nodejs)_/.test(n)))
      expect(registry, name).toContain(`'${name.replace(/_(bucket|count|sum)$/, '')}'`);
  });
});
