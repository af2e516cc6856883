/**
 * `folio … | head`: the reader closes the pipe after the first lines. The compiled CLI ends with 141 (128 + SIGPIPE,
 * as git or cat) and writes nothing to stderr; before, it died on an unhandled EPIPE with a stack trace.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

const entry = path.join(projectRoot(), 'dist', 'src', 'cli', 'folio.js');

let tree: string;
beforeAll(async () => {
  // A page naming 4,000 missing images: `folio check` prints a line for each, far more than a pipe holds, so its
  // writes go on after the reader has closed it.
  tree = await mkdtemp(path.join(tmpdir(), 'folio-closed-output-'));
  const images = Array.from({ length: 4000 }, (_, i) => `![i${i}](.gitbook/assets/missing-${i}.png)`).join('\n\n');
  await writeFile(path.join(tree, 'README.md'), `# Home\n\n${images}\n`);
  await writeFile(path.join(tree, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n');
});
afterAll(async () => {
  await rm(tree, { recursive: true, force: true });
});

describe('a closed standard output', () => {
  it('ends the command quietly with 141', async () => {
    const child = spawn(process.execPath, [entry, 'check', tree], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let first = '';
    await new Promise<void>((resolve) =>
      child.stdout.once('data', (d: Buffer) => {
        first = d.toString('utf8');
        child.stdout.destroy();
        resolve();
      }),
    );
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(first).toContain('FORMAT_ASSET_MISSING');
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });
});
