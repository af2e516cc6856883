/**
 * Builds SeaweedFS (`weed`, Apache-2.0), an S3-compatible object store, from the Go module proxy into
 * `.tools/bin/weed`: the server the tests and the production-shape run start on loopback for the `s3` blob store.
 * The module is pinned by `tools/seaweedfs/go.mod` and `go.sum`; a built binary whose stamp names the same
 * version is kept (Go's module and build caches make a rebuild after a version change incremental).
 * Run by `npm test` (its pre-script). Idempotent; one clear message when Go is missing.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadToolsConfig, type ToolsConfig } from '../config/tools.js';
import { projectRoot } from '../project-root.js';

/** The Go module of the server and its pinned version (the `require` of tools/seaweedfs/go.mod). */
export const SEAWEEDFS_MODULE = 'github.com/seaweedfs/seaweedfs';

function moduleDir(): string {
  return path.join(projectRoot(), 'tools', 'seaweedfs');
}

/** The version tools/seaweedfs/go.mod requires. */
export function seaweedfsVersion(): string {
  const mod = readFileSync(path.join(moduleDir(), 'go.mod'), 'utf8');
  const m = new RegExp(`^\\s*(?:require\\s+)?${SEAWEEDFS_MODULE.replace(/[.]/g, '\\.')}\\s+(v\\S+)`, 'm').exec(mod);
  if (!m) throw new Error(`tools/seaweedfs/go.mod requires no ${SEAWEEDFS_MODULE}`);
  return m[1]!;
}

export function weedPath(tools: ToolsConfig = loadToolsConfig()): string {
  return path.join(tools.dir, 'bin', 'weed');
}

function stampPath(tools: ToolsConfig): string {
  return path.join(tools.dir, 'weed.version');
}

function installed(tools: ToolsConfig, version: string): boolean {
  try {
    accessSync(weedPath(tools), constants.X_OK);
    return readFileSync(stampPath(tools), 'utf8').trim() === version;
  } catch {
    return false;
  }
}

/** The `weed` binary, built first when missing or of another version. Returns its path and the build's seconds (0: kept). */
export function ensureWeed(options: { quiet?: boolean; tools?: ToolsConfig } = {}): { path: string; buildSeconds: number } {
  const tools = options.tools ?? loadToolsConfig();
  const version = seaweedfsVersion();
  if (installed(tools, version)) return { path: weedPath(tools), buildSeconds: 0 };
  const say = (msg: string) => {
    if (!options.quiet) process.stderr.write(`[install-s3-server] ${msg}\n`);
  };
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.status !== 0) {
    throw new Error('building the S3 test server (SeaweedFS) needs Go 1.26 or later on PATH (https://go.dev/doc/install; Debian: golang-go).');
  }
  mkdirSync(path.join(tools.dir, 'bin'), { recursive: true });
  say(`building ${SEAWEEDFS_MODULE}/weed@${version} with ${go.stdout.trim()} into ${weedPath(tools)} (first time: several minutes)`);
  const started = Date.now();
  const r = spawnSync('go', ['build', '-mod=readonly', '-trimpath', '-ldflags=-s -w', '-o', weedPath(tools), `${SEAWEEDFS_MODULE}/weed`], {
    cwd: moduleDir(),
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`\`go build ${SEAWEEDFS_MODULE}/weed\` failed (exit ${r.status}); check access to the Go module proxy`);
  writeFileSync(stampPath(tools), `${version}\n`);
  const buildSeconds = Math.round((Date.now() - started) / 1000);
  say(`built in ${buildSeconds} s`);
  return { path: weedPath(tools), buildSeconds };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { path: weed } = ensureWeed();
    process.stderr.write(`[install-s3-server] weed: ${weed}\n`);
  } catch (err) {
    process.stderr.write(`[install-s3-server] ${(err as Error).message}\n`);
    process.exit(1);
  }
}
