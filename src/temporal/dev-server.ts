import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from './contract/search-attributes.js';

export interface DevServerOptions {
  binary: string;
  /** The address the frontend (and the Web UI) listen on: 127.0.0.1 unless given (a container's is 0.0.0.0). */
  ip?: string;
  port: number;
  uiPort?: number;
  /** Persist to this SQLite file; in memory when absent. */
  dbFile?: string;
  namespace?: string;
  headless?: boolean;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Raised on slow machines so workflow tasks do not time out spuriously. */
  workflowTaskTimeout?: string;
  stdio?: 'inherit' | 'pipe' | 'ignore';
}

/** SQLite settings of a persisted dev server (`--sqlite-pragma`). */
export const DEV_SERVER_SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'] as const;

/** The arguments of `temporal server start-dev` for Folio (custom search attributes registered up front). */
export function devServerArgs(options: DevServerOptions): string[] {
  const args = ['server', 'start-dev', '--ip', options.ip ?? '127.0.0.1', '--port', String(options.port), '--log-level', options.logLevel ?? 'warn'];
  if (options.headless || options.uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort));
  if (options.dbFile) {
    args.push('--db-filename', options.dbFile);
    // SQLite's defaults (rollback journal, an fsync per commit) cost 10-40 ms on every history write: a tiny
    // import's events took twice as long. A write-ahead log synced at checkpoints keeps the file consistent after a
    // crash; a power loss may lose the last commits (activities are idempotent and re-check the content store).
    for (const pragma of DEV_SERVER_SQLITE_PRAGMAS) args.push('--sqlite-pragma', pragma);
  }
  if (options.namespace && options.namespace !== 'default') args.push('--namespace', options.namespace);
  for (const { name } of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${name}=Keyword`);
  args.push('--dynamic-config-value', `history.defaultWorkflowTaskTimeout="${options.workflowTaskTimeout ?? '60s'}"`);
  // Folio's purge and refresh workflows wait for days; keep the dev server's history retention sane.
  args.push('--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true');
  // An activity scheduled by a workflow task goes back to that worker with the task's answer (when it has a free
  // slot) instead of through the matching service: one round trip less before every activity starts.
  args.push('--dynamic-config-value', 'system.enableActivityEagerExecution=true');
  return args;
}

export function spawnDevServer(options: DevServerOptions): ChildProcess {
  return spawn(options.binary, devServerArgs(options), { stdio: options.stdio ?? 'pipe', detached: false });
}

/** Waits (bounded) until the frontend at `address` answers health checks and the namespace exists. */
export async function waitForTemporal(address: string, options: { timeoutMs?: number; namespace?: string; isAlive?: () => boolean } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (options.isAlive && !options.isAlive()) throw new Error('the Temporal dev server exited before it became healthy');
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2000 });
      try {
        await connection.workflowService.describeNamespace({ namespace: options.namespace ?? 'default' });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`Temporal at ${address} did not become healthy in time: ${(lastError as Error | undefined)?.message ?? 'no answer'}`);
}
