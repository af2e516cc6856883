/**
 * docker-compose.yml cannot run on the test machines (no Docker), so this checks it against the code: every variable
 * it gives Folio is one Folio reads, the image holds every path Folio reads at run time and the Debian packages a
 * worker runs, every long-running service has a health check that can fail, the Folio processes share one blob store,
 * and every service in it is accounted for by the production-shape run (the same software, a named stand-in, or
 * nothing: test/helpers/production-shape/compose-services.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/config/variables.js';
import { loadConfig } from '../../src/config/config.js';
import { projectRoot } from '../../src/project-root.js';
import { debianPackage, RUNTIME_REQUIREMENTS } from '../../src/system-packages.js';
import { COMPOSE_SERVICES_IN_TEST } from '../helpers/production-shape/compose-services.js';

interface Service {
  image?: string;
  build?: { dockerfile_inline?: string };
  command?: string[] | string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] | string };
  restart?: string;
}

const root = projectRoot();
const compose = yaml.load(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };
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
      if (s.restart === 'no' || ['prometheus', 'grafana', 'temporal-ui'].includes(name)) continue;
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
    expect(JSON.stringify(services.s3!.command)).toContain('-master.telemetry=false');
  });

  it('lists every service in what the production-shape run starts: the same, a named stand-in, or nothing', () => {
    expect(Object.keys(services).sort()).toEqual(Object.keys(COMPOSE_SERVICES_IN_TEST).sort());
    // The Folio processes and the database are the same software in both; the S3 server is not (SeaweedFS here, S3Proxy there).
    for (const name of ['api', 'worker', 'postgresql']) expect(COMPOSE_SERVICES_IN_TEST[name]!.runs, name).toBe('same');
    expect(services.postgresql!.image).toMatch(/^postgres:/);
    expect(services.s3!.image).toMatch(/seaweedfs/);
    expect(COMPOSE_SERVICES_IN_TEST.s3).toMatchObject({ runs: 'stand-in', what: expect.stringContaining('S3Proxy') });
  });
});
