import { spawn } from 'node:child_process';

/**
 * Runs a non-Folio program (the Temporal dev server) so that it cannot outlive the supervisor: signals are
 * forwarded, and when stdin (a pipe from the supervisor) closes, the program gets SIGTERM, then SIGKILL.
 */
export async function guard(command: string, args: string[]): Promise<number> {
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on('SIGINT', () => forward('SIGINT'));
  process.on('SIGTERM', () => forward('SIGTERM'));
  const orphaned = () => {
    forward('SIGTERM');
    setTimeout(() => forward('SIGKILL'), 3000).unref();
  };
  process.stdin.on('end', orphaned);
  process.stdin.on('error', orphaned);
  process.stdin.resume();
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      process.stdin.pause();
      resolve(code ?? (signal ? 128 : 1));
    });
    child.on('error', (err) => {
      process.stderr.write(`could not start ${command}: ${err.message}\n`);
      resolve(127);
    });
  });
}
