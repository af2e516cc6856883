/** The embedded database in a process of its own, as `folio start` runs it, for the benchmarks. (Not a benchmark: run.ts skips `_` files.) */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDED_DB_NODE_FLAGS } from '../src/store/pglite-memory.js';

/** VmRSS of a process, in bytes (0 when it is gone or not on Linux). */
export function rssOf(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** A `folio db-server` on a temporary data directory, as `folio start` runs it; resolves with its address. */
export async function startDbServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const here = fileURLToPath(import.meta.url);
  const cli = here.endsWith('.ts') ? ['--import', 'tsx', join(here, '../../src/cli/folio.ts')] : [join(here, '../../src/cli/folio.js')];
  const child = spawn(process.execPath, [...EMBEDDED_DB_NODE_FLAGS, ...cli, 'db-server'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /FOLIO_DB_URL=(\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`folio db-server exited ${code}`)));
  });
  return { child, url };
}
