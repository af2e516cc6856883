/**
 * What keeps the embedded database's process small (issue 17: 829 MB right after start, 960 MB at peak).
 * - Its PostgreSQL settings: PGlite's defaults with `shared_buffers` at 16 MB instead of 128 MB (the buffer pool
 *   lives in the WASM heap and, once touched, stays in the RSS; the data files are read through the operating
 *   system's page cache anyway) and `maintenance_work_mem` at 16 MB.
 * - A new data directory is initialised (initdb, a second WASM instance that peaks near 1 GB and whose memory is
 *   not given back) in a short-lived child process; the server then opens the initialised directory.
 * - Its process runs with one V8 background thread and a small young generation (`EMBEDDED_DB_NODE_FLAGS`): each
 *   thread that compiles hot WASM functions of PostgreSQL mallocs in its own glibc arena, whose memory stays in the RSS.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';

export const EMBEDDED_DB_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  maintenance_work_mem: '16MB',
};

/**
 * Node flags of the `folio db-server` process that `folio start` runs.
 * - `--v8-pool-size=1`: V8's background work (the tier-up compilation of hot WASM functions, GC helpers) in one thread
 *   instead of four; with four, each compiling thread's malloc arena kept its peak: 234-247 MB right after start and
 *   migrations, 173-177 MB with one.
 * - `--max-semi-space-size=2`: a young generation of 4 MB instead of up to 32 (the process's JavaScript is the wire
 *   protocol's short-lived buffers): 14 MB less at the peak of the 5,000-page end-to-end benchmark.
 */
export const EMBEDDED_DB_NODE_FLAGS: readonly string[] = ['--v8-pool-size=1', '--max-semi-space-size=2'];

/** PGlite's start parameters with Folio's settings (and `overrides`) added. */
export function embeddedStartParams(overrides: Record<string, string> = {}): string[] {
  const settings = { ...EMBEDDED_DB_SETTINGS, ...overrides };
  return [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
}

const INIT_SCRIPT = `const { PGlite } = await import('@electric-sql/pglite');
const db = await PGlite.create(process.argv[1]);
await db.close();`;

/** Runs initdb for a data directory that has none yet, in a child process (no-op when it is initialised). */
export async function initDataDirApart(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  // Run from PGlite's own directory, so that the child resolves the very package this process uses.
  const cwd = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', INIT_SCRIPT, path.resolve(dataDir)], { cwd, maxBuffer: 16 * 1024 * 1024 });
}
