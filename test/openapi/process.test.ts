import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processSpec, type ProcessSpecFailure, type ProcessSpecResult, type ProcessSpecSuccess } from '../../src/openapi/process.js';
import { startSpecServer, type Route, type SpecServer } from './spec-server.js';
import { corpusDir } from '../../src/project-root.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, 'fixtures');
const root = path.resolve(here, '../..');
const corpus = path.join(corpusDir(), 'aimlapi+api-docs/docs');
const gitbookYaml = path.join(root, 'node_modules/@gitbook/api/spec/openapi.yaml');

const CORPUS_SPECS = [
  'capabilities/batch-get.json',
  'api-references/image-models/OpenAI/gpt-image-1-EDIT.json',
  'api-references/speech-models/MiniMax/speech-2.5-hd-preview.json',
];

function filesUnder(dir: string, prefix = ''): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, `${prefix}${name}/`));
    else out.push([`${prefix}${name}`, readFileSync(full, 'utf8')]);
  }
  return out;
}

let server: SpecServer;
const hanging: Array<import('node:http').ServerResponse> = [];
const fetchOptions = { timeoutMs: 5000, policy: loopbackPolicy };

function ok(result: ProcessSpecResult): ProcessSpecSuccess {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${JSON.stringify(result.errors.slice(0, 3))}`);
  return result;
}
function failed(result: ProcessSpecResult): ProcessSpecFailure {
  if (result.ok) throw new Error('expected a failure');
  return result;
}

beforeAll(async () => {
  const routes: Record<string, Route> = {};
  for (const [rel, text] of filesUnder(fixtures)) routes[`/specs/${rel}`] = { body: text };
  for (const rel of CORPUS_SPECS)
    routes[`/corpus/${path.basename(rel)}`] = { body: readFileSync(path.join(corpus, rel)), headers: { 'content-type': 'application/json' } };
  routes['/gitbook/openapi.yaml'] = { body: readFileSync(gitbookYaml), headers: { 'content-type': 'application/yaml' } };
  routes['/never'] = (_req, res) => void hanging.push(res);
  routes['/500'] = { status: 500, body: 'internal error' };
  routes['/moved/spec'] = { status: 302, headers: { location: '/specs/split/openapi.yaml' } };
  server = await startSpecServer(routes);
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await server.close();
});

describe('processSpec: valid specifications', () => {
  it.each(CORPUS_SPECS)('processes the real spec %s from a URL', async (rel) => {
    const name = path.basename(rel);
    const original = readFileSync(path.join(corpus, rel), 'utf8');
    const result = ok(await processSpec({ url: `${server.url}/corpus/${name}` }, { fetch: fetchOptions }));
    expect(result.rootPath).toBe(name);
    expect(result.filesystem).toEqual({ [name]: original });
    expect(result.info.specVersion).toBe(JSON.parse(original).openapi);
    expect(result.info.title).toBe(JSON.parse(original).info.title);
    expect(result.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result.url).toBe(`${server.url}/corpus/${name}`);
  });

  it('keeps schema deviations deep inside a real spec as warnings, not as a failure', async () => {
    const result = ok(await processSpec({ url: `${server.url}/corpus/batch-get.json` }, { fetch: fetchOptions }));
    expect(result.warningCount).toBeGreaterThan(0);
    expect(result.warnings[0]!.location).toMatch(/^#\/paths\//);
    expect(result.warnings.some((w) => w.message.includes('description'))).toBe(true);
  });

  it('processes the GitBook API spec (YAML, OpenAPI 3.1, 1.2 MB)', async () => {
    const result = ok(await processSpec({ url: `${server.url}/gitbook/openapi.yaml` }, { fetch: fetchOptions }));
    expect(result.info).toEqual({ specVersion: '3.1.0', title: 'GitBook API', version: '0.0.1-beta' });
    expect(Object.keys(result.filesystem)).toEqual(['openapi.yaml']);
    expect(result.filesystem['openapi.yaml']).toBe(readFileSync(gitbookYaml, 'utf8'));
  });

  it('processes a Swagger 2.0 document with a circular schema', async () => {
    const result = ok(await processSpec({ url: `${server.url}/specs/swagger2.yaml` }, { fetch: fetchOptions }));
    expect(result.info).toEqual({ specVersion: '2.0', title: 'Swagger Petstore', version: '1.0.0' });
    expect(result.warnings).toEqual([]);
  });

  it('bundles a spec split across files with relative $refs, each file fetched once', async () => {
    const before = server.hits.length;
    const result = ok(await processSpec({ url: `${server.url}/specs/split/openapi.yaml` }, { fetch: fetchOptions }));
    expect(result.rootPath).toBe('openapi.yaml');
    expect(Object.keys(result.filesystem).sort()).toEqual(['../shared/errors.json', 'openapi.yaml', 'schemas/common.yaml', 'schemas/pet.yaml']);
    for (const [key, text] of Object.entries(result.filesystem)) {
      expect(text).toBe(readFileSync(path.join(fixtures, 'split', key), 'utf8'));
    }
    const hits = server.hits.slice(before);
    expect(hits.sort()).toEqual([
      '/specs/shared/errors.json',
      '/specs/split/openapi.yaml',
      '/specs/split/schemas/common.yaml',
      '/specs/split/schemas/pet.yaml',
    ]);
    // YAML 1.2: an unquoted date stays a string; here it is quoted anyway and must come through as-is.
    expect(result.info.version).toBe('2024-01-01');
  });

  it('keeps two files whose relative paths collide (root fetched with a query string)', async () => {
    server.routes.set('/q/spec.yaml', {
      body: 'openapi: 3.1.0\ninfo: { title: Q, version: "1" }\npaths:\n  /x:\n    $ref: "spec.yaml#/components/pathItems/X"\ncomponents:\n  pathItems:\n    X:\n      get:\n        responses:\n          "200": { description: ok }\n',
    });
    const result = ok(await processSpec({ url: `${server.url}/q/spec.yaml?v=2` }, { fetch: fetchOptions }));
    expect(result.rootPath).toBe('spec.yaml');
    expect(Object.keys(result.filesystem).sort()).toEqual([`${server.url}/q/spec.yaml`, 'spec.yaml']);
  });

  it('resolves relative $refs against the URL after redirects', async () => {
    const result = ok(await processSpec({ url: `${server.url}/moved/spec` }, { fetch: fetchOptions }));
    expect(result.url).toBe(`${server.url}/specs/split/openapi.yaml`);
    expect(Object.keys(result.filesystem)).toHaveLength(4);
  });

  it('processes a text source, fetching absolute http $refs and keying them by URL', async () => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Text', version: '1' },
      paths: { '/x': { get: { responses: { '404': { $ref: `${server.url}/specs/shared/errors.json#/responses/NotFound` } } } } },
    });
    const result = ok(await processSpec({ text }, { fetch: fetchOptions }));
    expect(result.rootPath).toBe('openapi.json');
    expect(result.url).toBeUndefined();
    expect(result.filesystem['openapi.json']).toBe(text);
    expect(result.filesystem[`${server.url}/specs/shared/errors.json`]).toBe(readFileSync(path.join(fixtures, 'shared/errors.json'), 'utf8'));
    const yaml = ok(await processSpec({ text: 'openapi: 3.1.0\ninfo: { title: Y, version: "1" }\npaths: {}\n' }, { fetch: fetchOptions }));
    expect(yaml.rootPath).toBe('openapi.yaml');
  });
});

describe('processSpec: content hash', () => {
  it('is the same for an unchanged re-fetch and changes with any referenced file', async () => {
    const url = `${server.url}/specs/split/openapi.yaml`;
    const a = ok(await processSpec({ url }, { fetch: fetchOptions }));
    const b = ok(await processSpec({ url }, { fetch: { ...fetchOptions }, concurrency: 1 }));
    expect(b.hash).toBe(a.hash);
    const original = server.routes.get('/specs/shared/errors.json');
    server.routes.set('/specs/shared/errors.json', { body: readFileSync(path.join(fixtures, 'shared/errors.json'), 'utf8').replace('Not found', 'Gone') });
    try {
      const c = ok(await processSpec({ url }, { fetch: fetchOptions }));
      expect(c.hash).not.toBe(a.hash);
      expect(c.filesystem['../shared/errors.json']).toContain('Gone');
    } finally {
      server.routes.set('/specs/shared/errors.json', original!);
    }
  });
});

describe('processSpec: failures', () => {
  it('FETCH_TIMEOUT when the server never answers', async () => {
    const result = failed(await processSpec({ url: `${server.url}/never` }, { fetch: { ...fetchOptions, timeoutMs: 300 } }));
    expect(result.code).toBe('FETCH_TIMEOUT');
    expect(result.errors[0]!.location).toBe(`${server.url}/never`);
  });

  it('FETCH_TIMEOUT when an external $ref never answers', async () => {
    const text = `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /x:\n    $ref: "${server.url}/never"\n`;
    const result = failed(await processSpec({ text }, { fetch: { ...fetchOptions, timeoutMs: 300 } }));
    expect(result.code).toBe('FETCH_TIMEOUT');
  });

  it('FETCH_ERROR on HTTP 500, and on a 404 external file', async () => {
    const result = failed(await processSpec({ url: `${server.url}/500` }, { fetch: fetchOptions }));
    expect(result.code).toBe('FETCH_ERROR');
    expect(result.errors[0]!.message).toContain('500');
    const text = `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /x:\n    $ref: "${server.url}/specs/missing.yaml"\n`;
    const missing = failed(await processSpec({ text }, { fetch: fetchOptions }));
    expect(missing.code).toBe('FETCH_ERROR');
    expect(missing.errors[0]!.message).toContain('404');
  });

  it('FETCH_ERROR when private networks are denied (the default), for the root and for a $ref', async () => {
    const denied = { timeoutMs: 5000 };
    expect(failed(await processSpec({ url: `${server.url}/specs/swagger2.yaml` }, { fetch: denied })).code).toBe('FETCH_ERROR');
    const text = `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /x:\n    $ref: "${server.url}/specs/split/openapi.yaml#/paths/~1pets~1{id}"\n`;
    const before = server.hits.length;
    const result = failed(await processSpec({ text }, { fetch: denied }));
    expect(result.code).toBe('FETCH_ERROR');
    expect(result.errors[0]!.message).toContain('denied');
    expect(server.hits.length).toBe(before);
  });

  it('FETCH_ERROR naming FETCH_ALLOW_HOSTS for a $ref or a redirect to a denied address, with loopback allowlisted', async () => {
    server.routes.set('/to-metadata', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/openapi.yaml' } });
    server.routes.set('/to-neighbour', { status: 307, headers: { location: `http://127.0.0.2:${server.port}/specs/swagger2.yaml` } });
    const before = server.hits.length;
    for (const url of [`${server.url}/to-metadata`, `${server.url}/to-neighbour`]) {
      const root = failed(await processSpec({ url }, { fetch: fetchOptions }));
      expect(root.code, url).toBe('FETCH_ERROR');
      expect(root.retryable).toBe(false);
      expect(root.errors[0]!.message, url).toContain('FETCH_ALLOW_HOSTS');
    }
    for (const target of [
      'http://169.254.169.254/latest/meta-data/x.yaml',
      'http://[fd00::1]/x.yaml',
      'http://[::ffff:169.254.169.254]/x.yaml',
      `http://127.0.0.2:${server.port}/specs/swagger2.yaml`,
      `${server.url}/to-metadata`,
    ]) {
      const text = `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /x:\n    $ref: "${target}#/paths/~1x"\n`;
      const result = failed(await processSpec({ text }, { fetch: fetchOptions }));
      expect(result.code, target).toBe('FETCH_ERROR');
      expect(result.errors[0]!.message, target).toContain('FETCH_ALLOW_HOSTS');
    }
    // Only the allowed first hops reached the (loopback) server; no denied address was ever connected to.
    expect(server.hits.slice(before)).toEqual(['/to-metadata', '/to-neighbour', '/to-metadata']);
  });

  it('PARSE_ERROR with line and column for broken YAML', async () => {
    server.routes.set('/broken.yaml', { body: 'openapi: 3.0.3\ninfo:\n  title: [unclosed\n  version: 1\npaths: {}\n' });
    const result = failed(await processSpec({ url: `${server.url}/broken.yaml` }, { fetch: fetchOptions }));
    expect(result.code).toBe('PARSE_ERROR');
    expect(result.errors[0]!.location).toMatch(/^broken\.yaml:\d+:\d+$/);
    expect(result.errorCount).toBeGreaterThan(0);
  });

  it('PARSE_ERROR for broken JSON', async () => {
    const result = failed(await processSpec({ text: '{ "openapi": "3.0.3", "info": { , }' }, { fetch: fetchOptions }));
    expect(result.code).toBe('PARSE_ERROR');
    expect(result.errors[0]!.location).toMatch(/^openapi\.json:1:\d+$/);
  });

  it('PARSE_ERROR for a schema-invalid document, with JSON-pointer locations', async () => {
    const result = failed(await processSpec({ text: JSON.stringify({ openapi: '3.0.3', info: { title: 'No version' }, paths: [] }) }, { fetch: fetchOptions }));
    expect(result.code).toBe('PARSE_ERROR');
    const locations = result.errors.map((e) => e.location);
    expect(locations).toContain('#/info');
    expect(locations).toContain('#/paths');
    expect(result.errors.find((e) => e.location === '#/info')!.message).toContain('version');
  });

  it('an unknown top-level key is a warning, not a failure', async () => {
    const result = ok(
      await processSpec({ text: JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {}, extra: true }) }, { fetch: fetchOptions }),
    );
    expect(result.warnings).toEqual([{ location: '#', message: 'must NOT have additional properties (extra)' }]);
  });

  it('PARSE_ERROR for documents that are not OpenAPI, or not objects', async () => {
    for (const text of ['{"hello":"world"}', 'openapi: 9.9.9\ninfo: {title: x, version: "1"}\npaths: {}\n', '- a\n- b\n', 'just a string']) {
      const result = failed(await processSpec({ text }, { fetch: fetchOptions }));
      expect(result.code, text).toBe('PARSE_ERROR');
      expect(result.errors.length, text).toBeGreaterThan(0);
    }
  });

  it('PARSE_ERROR located at a $ref whose target does not exist', async () => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: {
        '/x': { get: { responses: { '200': { description: 'x', content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } } } } } },
      },
    });
    const result = failed(await processSpec({ text }, { fetch: fetchOptions }));
    expect(result.code).toBe('PARSE_ERROR');
    expect(result.errors[0]!.location).toBe('#/paths/~1x/get/responses/200/content/application~1json/schema');
    expect(result.errors[0]!.message).toContain('#/components/schemas/Nope');
  });

  it('refuses file: and local-path $refs from a URL source, and never reads them', async () => {
    for (const ref of ['file:///etc/hostname', '/etc/hostname']) {
      server.routes.set('/local-ref.yaml', { body: `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /x:\n    $ref: "${ref}"\n` });
      const result = await processSpec({ url: `${server.url}/local-ref.yaml` }, { fetch: fetchOptions });
      if (ref.startsWith('file:')) {
        expect(failed(result).code).toBe('PARSE_ERROR');
        expect(failed(result).errors[0]!.message).toContain('local file');
      } else {
        // A path-only ref in a document from a URL is a URL on the same server: fetched over HTTP (404 here).
        expect(failed(result).code).toBe('FETCH_ERROR');
        expect(server.hits).toContain('/etc/hostname');
      }
    }
  });

  it('refuses relative and absolute local refs in a text source', async () => {
    for (const ref of ['./schemas/pet.yaml', '/etc/hostname', 'file:///etc/hostname', `${path.join(fixtures, 'split/schemas/pet.yaml')}`]) {
      const text = `openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths:\n  /x:\n    $ref: "${ref}"\n`;
      const result = failed(await processSpec({ text }, { fetch: fetchOptions }));
      expect(result.code, ref).toBe('PARSE_ERROR');
      expect(result.errors[0]!.message, ref).toContain('local file');
      expect(result.errors[0]!.location, ref).toBe('openapi.yaml#/paths/~1x');
      if (!ref.includes(process.cwd())) expect(JSON.stringify(result), ref).not.toContain(process.cwd());
    }
  });

  it('caps the number of external files', async () => {
    const result = failed(await processSpec({ url: `${server.url}/specs/split/openapi.yaml` }, { fetch: fetchOptions, maxFiles: 2 }));
    expect(result.code).toBe('PARSE_ERROR');
    expect(result.errors[0]!.message).toContain('more than 2 external files');
  });

  it('caps the size of each response (FETCH_ERROR)', async () => {
    const result = failed(await processSpec({ url: `${server.url}/gitbook/openapi.yaml` }, { fetch: { ...fetchOptions, maxBytes: 100_000 } }));
    expect(result.code).toBe('FETCH_ERROR');
    expect(result.errors[0]!.message).toContain('larger than 100000 bytes');
  });
});
