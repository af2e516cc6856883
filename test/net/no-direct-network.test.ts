import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * Every outbound request on behalf of users goes through src/net (the fetch guard). This test reads the source
 * tree and fails when a direct network call appears anywhere else, so the rule holds for the pipelines to come.
 */
const SCANNED = ['src', 'activities', 'workflows'];
const GUARD_DIR = 'src/net/';

/** Calls and modules that open connections without the guard. */
const PATTERNS: Array<[string, RegExp]> = [
  ['global fetch()', /(?<![.\w$])fetch\s*\(/],
  ['http(s)/http2 request', /\b(?:http|https|http2)\.(?:request|get|connect)\s*\(/],
  ['net/tls socket', /\b(?:net|tls)\.(?:connect|createConnection)\s*\(/],
  ['new Socket()', /\bnew\s+(?:net\.)?Socket\s*\(/],
  ['WebSocket / XMLHttpRequest', /\bnew\s+(?:WebSocket|XMLHttpRequest|EventSource)\s*\(/],
  ['HTTP client package', /from\s+['"](?:undici|got|axios|node-fetch|cross-fetch|isomorphic-fetch|superagent|ky|isomorphic-git\/http\/[\w-]+)['"]/],
  ['require of an HTTP client package', /require\(\s*['"](?:undici|got|axios|node-fetch|cross-fetch)['"]\s*\)/],
];

/**
 * Reviewed exceptions: connections to Folio's own infrastructure chosen by the operator, never to a URL a user
 * supplies. Each entry is file → the kind of call allowed there.
 */
const EXCEPTIONS: Record<string, string[]> = {
  // The admin CLI connects to the operator's DATABASE_URL to see whether the embedded server is up.
  'src/cli/open-store.ts': ['net/tls socket'],
  // `folio start` polls its own API's /healthz on loopback.
  'src/cli/commands/start.ts': ['global fetch()'],
  // The embedded database server probes its own unix socket for a live server before it replaces a stale socket file.
  'src/store/pglite-server.ts': ['net/tls socket'],
  // The test tooling's installer downloads the pinned S3Proxy archive from Maven Central (a fixed URL, its SHA-256 checked).
  'src/s3-server/install.ts': ['global fetch()'],
};

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else if (/\.(?:ts|mts|cts|js|mjs)$/.test(name)) out.push(full);
  }
  return out;
}

/** Strips comments, so prose that mentions fetch( is not a call. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

export function directNetworkCalls(text: string): Array<{ kind: string; line: number; source: string }> {
  const found: Array<{ kind: string; line: number; source: string }> = [];
  const lines = code(text).split('\n');
  lines.forEach((source, i) => {
    for (const [kind, re] of PATTERNS) if (re.test(source)) found.push({ kind, line: i + 1, source: source.trim() });
  });
  return found;
}

describe('outbound requests go through src/net', () => {
  it('the detector finds direct calls (so this test can fail)', () => {
    const sample = [
      'const res = await fetch(req.url, init);',
      "import { request } from 'undici';",
      'https.get(url, cb);',
      'const s = net.connect({ host, port });',
      "import { default as http } from 'isomorphic-git/http/node';",
      '// fetch(url) in a comment is fine',
      'await git.fetch({ http });',
    ].join('\n');
    expect(directNetworkCalls(sample).map((f) => f.kind)).toEqual([
      'global fetch()',
      'HTTP client package',
      'http(s)/http2 request',
      'net/tls socket',
      'HTTP client package',
    ]);
  });

  it(`no direct network call in ${SCANNED.join(', ')} outside ${GUARD_DIR}`, () => {
    const root = projectRoot();
    const violations: string[] = [];
    const seenExceptions = new Set<string>();
    for (const dir of SCANNED) {
      for (const file of filesUnder(path.join(root, dir))) {
        const rel = path.relative(root, file).split(path.sep).join('/');
        if (rel.startsWith(GUARD_DIR)) continue;
        for (const hit of directNetworkCalls(readFileSync(file, 'utf8'))) {
          if (EXCEPTIONS[rel]?.includes(hit.kind)) {
            seenExceptions.add(`${rel}:${hit.kind}`);
            continue;
          }
          violations.push(`${rel}:${hit.line}: ${hit.kind}: ${hit.source}`);
        }
      }
    }
    expect(violations, 'use guardedFetch from src/net/guarded-fetch.ts').toEqual([]);
    // An exception that no longer matches anything is removed from the list, so the list stays honest.
    expect([...seenExceptions].sort()).toEqual(
      Object.entries(EXCEPTIONS)
        .flatMap(([f, kinds]) => kinds.map((k) => `${f}:${k}`))
        .sort(),
    );
  });
});
