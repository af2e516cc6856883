/**
 * A temporary directory other local users can reach: the tests that run PostgreSQL's binaries as the `postgres`
 * user, or a client as `nobody`, put their files there. The system's temporary directory, unless one of its parents
 * is closed to other users (TMPDIR inside a mode-0700 directory), then /tmp.
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function reachable(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      if ((statSync(d).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (d === path.dirname(d)) return true;
  }
}

export function sharedTmpdir(): string {
  const tmp = os.tmpdir();
  return reachable(tmp) || !reachable('/tmp') ? tmp : '/tmp';
}
