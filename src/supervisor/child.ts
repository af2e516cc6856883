import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { formatLine } from './log-lines.js';

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Called for each stdout line before it is logged (e.g. to read an announced address). */
  onLine?: (line: string) => void;
  /** Restart after an unexpected exit (with backoff); give up after `maxRestarts` within a minute. */
  restart?: boolean;
  maxRestarts?: number;
}

export interface LogSink {
  write(line: string): void;
  pretty: boolean;
  color: boolean;
}

/**
 * One supervised child process: its output becomes prefixed log lines, an unexpected exit is restarted with
 * backoff, and `stop()` sends SIGTERM then SIGKILL after a grace period.
 */
export class SupervisedChild {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restarts: number[] = [];
  private exitWaiters: Array<() => void> = [];
  onGiveUp: ((code: number | null) => void) | null = null;

  constructor(
    private readonly spec: ChildSpec,
    private readonly sink: LogSink,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    const format = formatLine(this.spec.name, { pretty: this.sink.pretty, color: this.sink.color });
    // stdin stays an open pipe: a Folio child exits when it closes, i.e. when the supervisor dies, even by SIGKILL.
    const child = spawn(this.spec.command, this.spec.args, { env: this.spec.env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin?.on('error', () => {});
    this.child = child;
    for (const [stream, source] of [
      ['stdout', child.stdout],
      ['stderr', child.stderr],
    ] as const) {
      const rl = readline.createInterface({ input: source });
      rl.on('line', (line) => {
        if (stream === 'stdout') this.spec.onLine?.(line);
        const out = format(line, stream);
        if (out !== null) this.sink.write(out);
      });
    }
    child.on('exit', (code, signal) => {
      const waiters = this.exitWaiters;
      this.exitWaiters = [];
      waiters.forEach((w) => w());
      if (this.stopping) return;
      this.sink.write(format(JSON.stringify({ level: 50, time: Date.now(), msg: `exited unexpectedly (code ${code}, signal ${signal})` }), 'stderr') ?? '');
      if (!this.spec.restart) {
        this.onGiveUp?.(code);
        return;
      }
      const now = Date.now();
      this.restarts = this.restarts.filter((t) => now - t < 60_000);
      this.restarts.push(now);
      if (this.restarts.length > (this.spec.maxRestarts ?? 5)) {
        this.onGiveUp?.(code);
        return;
      }
      const delay = Math.min(30_000, 500 * 2 ** (this.restarts.length - 1));
      setTimeout(() => {
        if (!this.stopping) this.start();
      }, delay).unref();
    });
    child.on('error', (err) => {
      this.sink.write(format(JSON.stringify({ level: 50, time: Date.now(), msg: `could not start: ${err.message}` }), 'stderr') ?? '');
    });
  }

  /** SIGTERM, then SIGKILL after `graceMs`. Resolves when the process is gone. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.exitWaiters.push(resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
