/**
 * The last line of the worker, the API and the database server (issue 25, item 2): a lost database connection that
 * escapes its handler is logged and the process keeps running; any other uncaught exception is logged (redacted) and
 * ends the process with code 1, never silently.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const child = path.join(import.meta.dirname, 'fixtures', 'last-resort-child.ts');

async function run(kind: string): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, kind], { cwd: path.resolve(import.meta.dirname, '../..') });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '' };
  }
}

const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; error?: { code?: string; message: string } });

describe('the last line of a Folio process', () => {
  it.each(['emitted-reset', 'rejected-terminated'])('%s: logged, and the process keeps running', async (kind) => {
    const { code, stdout } = await run(kind);
    expect(code).toBe(0);
    expect(stdout).toContain('alive');
    const [line] = lines(stdout);
    expect(line).toMatchObject({ level: 50, msg: expect.stringContaining('lost database connection') });
  });

  it('any other uncaught exception: logged without credentials, exit code 1', async () => {
    const { code, stdout } = await run('type-error');
    expect(code).toBe(1);
    expect(stdout).not.toContain('alive');
    expect(stdout).not.toContain('s3cret');
    const [line] = lines(stdout);
    expect(line).toMatchObject({
      level: 60,
      msg: expect.stringContaining('uncaught exception'),
      error: { message: expect.stringContaining('is not a function') },
    });
  });
});
