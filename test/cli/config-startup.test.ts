/**
 * Startup of the real `folio` processes (compiled CLI): an invalid value stops `folio api` before anything starts,
 * with a message naming the variable; an unknown FOLIO_* variable is warned about by `folio worker`, with the
 * closest known name.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

const entry = path.join(projectRoot(), 'dist', 'src', 'cli', 'folio.js');
const work = mkdtempSync(path.join(os.tmpdir(), 'folio-config-startup-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

async function folio(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = { PATH: process.env.PATH ?? '', HOME: os.homedir(), DATA_DIR: path.join(work, 'data'), FOLIO_LOG_PRETTY: '0' };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [entry, ...args], { env: { ...base, ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('folio startup and its configuration', () => {
  it('an invalid value stops folio api with a message naming the variable', async () => {
    const r = await folio(['api'], { PORT: 'eighty' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('folio: PORT must be a whole number from 0 to 65535, got "eighty"');
  });

  it('an unknown FOLIO_* variable is warned about at start, with the closest known name', async () => {
    // The worker stops right after (no database at this address); the warning comes first.
    const r = await folio(['worker'], { FOLIO_TASK_QUEU: 'docs', DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none', TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(r.code).not.toBe(0);
    const warnings = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.variable === 'FOLIO_TASK_QUEU');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: 40,
      suggestion: 'FOLIO_TASK_QUEUE',
      msg: 'unknown environment variable FOLIO_TASK_QUEU is ignored (did you mean FOLIO_TASK_QUEUE?)',
    });
  });
});
