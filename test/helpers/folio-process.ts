/**
 * `folio start` (the built CLI, dist/) as a process of its own, for tests that kill one of its supervised children:
 * its output lines, its children by role (Linux /proc), health polling and a clean stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { projectRoot } from '../../src/project-root.js';

export const folioEntry = path.join(projectRoot(), 'dist', 'src', 'cli', 'folio.js');

export interface FolioProcess {
  child: ChildProcess;
  /** Every line it and its children printed (JSON log lines of the children, prefixed by their role). */
  output: string[];
  exited: Promise<number | null>;
}

export function startFolioProcess(env: NodeJS.ProcessEnv): FolioProcess {
  const child = spawn(process.execPath, [folioEntry, 'start'], { env: { ...process.env, ...env, FOLIO_LOG_PRETTY: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) readline.createInterface({ input: stream }).on('line', (l) => output.push(l));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

/** The command line of a process. */
export function argvOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

/** The child process of `parent` that runs `folio <role>`, or null. */
export function childOf(parent: number, role: string): number | null {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      const argv = argvOf(Number(name));
      if (argv[argv.findIndex((a) => a.endsWith('folio.js')) + 1] === role) return Number(name);
    } catch {
      // gone
    }
  }
  return null;
}

/** Whether the process is alive (and not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function waitHealthy(url: string, started: FolioProcess, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`folio start exited early:\n${started.output.slice(-40).join('\n')}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`not healthy in time:\n${started.output.slice(-40).join('\n')}`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
export async function stopFolioProcess(started: FolioProcess, graceMs = 15_000): Promise<number | null> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return started.child.exitCode;
  started.child.kill('SIGTERM');
  const timer = setTimeout(() => started.child.kill('SIGKILL'), graceMs);
  const code = await started.exited;
  clearTimeout(timer);
  return code;
}
