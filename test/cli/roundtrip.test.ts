import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as roundtrip from '../../src/cli/commands/roundtrip.js';
import { readWorkingTree } from '../../src/format/source-tree.js';
import { corpusDir } from '../../src/project-root.js';
import { lastJson, runCommand } from './run-command.js';

const CORPUS = corpusDir();
const SMALL = join(CORPUS, 'GitbookIO+git-sync-normalization');
const PROJECT = join(CORPUS, 'stacks-network+docs');
const OLD_STYLE = join(CORPUS, 'wandb+gitbook');

describe('folio roundtrip', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'folio-roundtrip-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it.skipIf(!existsSync(SMALL))('plain: every file of a corpus repository comes back identical, at the same paths', async () => {
    const out = join(work, 'plain');
    const r = await runCommand(roundtrip, [SMALL, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = lastJson(r.stdout);
    const input = await readWorkingTree(SMALL);
    expect(Object.keys(report).sort()).toEqual(['changed', 'extra', 'files', 'identical', 'missing', 'pages']);
    expect(report).toMatchObject({ identical: input.size, changed: 0, missing: 0, extra: 0 });
    expect(report.pages).toBeGreaterThan(0);
    const written = await readWorkingTree(out);
    for (const [path, e] of input) expect(written.get(path)?.oid, path).toBe(e.oid);
  });

  it.skipIf(!existsSync(OLD_STYLE))('--reserialize: pages written from the model; nothing missing or extra, nearly all identical', async () => {
    const out = join(work, 'reserialized');
    const r = await runCommand(roundtrip, [OLD_STYLE, '--out', out, '--reserialize', '--list']);
    expect(r.code).toBe(0);
    const report = lastJson(r.stdout) as { pages: number; identical: number; changed: number; missing: number; extra: number; changedPaths: string[] };
    expect(report).toMatchObject({ missing: 0, extra: 0 });
    expect(report.changedPaths).toHaveLength(report.changed);
    // Not every file of the repository was written by GitBook: some pages may change, never most of them.
    expect(report.changed).toBeLessThan(report.pages * 0.1);
    expect(report.identical + report.changed).toBe((await readWorkingTree(OLD_STYLE)).size);
  });

  it.skipIf(!existsSync(PROJECT))('--root: the project directory inside the repository; other files are copied through', async () => {
    const out = join(work, 'project');
    const r = await runCommand(roundtrip, [PROJECT, '--root', 'docs/build', '--out', out]);
    expect(r.code).toBe(0);
    const report = lastJson(r.stdout);
    const input = await readWorkingTree(PROJECT);
    expect(report).toMatchObject({ identical: input.size, changed: 0, missing: 0, extra: 0 });
    const whole = lastJson((await runCommand(roundtrip, [PROJECT, '--out', out])).stdout);
    expect(whole.pages).not.toBe(report.pages);
  });

  describe('--out safety', () => {
    let input: string;
    beforeAll(async () => {
      input = join(work, 'input');
      await mkdir(join(input, 'guide'), { recursive: true });
      await writeFile(join(input, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n');
      await writeFile(join(input, 'README.md'), '# Home\n');
      await writeFile(join(input, 'guide', 'README.md'), '# Guide\n');
    });
    const inputFiles = async () => (await readdir(input, { recursive: true })).map(String).sort();

    it('refuses an --out that is the input, lies inside it or contains it, and deletes nothing', async () => {
      const before = await inputFiles();
      for (const out of [input, join(input, 'out'), join(input, 'guide'), work, join(input, '..')]) {
        const r = await runCommand(roundtrip, [input, '--out', out]);
        expect(r.code, out).toBe(2);
        expect(r.stderr).toMatch(/--out .* (is the input directory or inside it|contains the input directory)/);
        // --force does not override this
        expect((await runCommand(roundtrip, [input, '--out', out, '--force'])).code).toBe(2);
      }
      expect(await inputFiles()).toEqual(before);
      expect(await readFile(join(input, 'README.md'), 'utf8')).toBe('# Home\n');
    });

    it('refuses a non-empty directory that is not an earlier output unless --force; replaces an earlier output', async () => {
      const out = join(work, 'precious');
      await mkdir(out, { recursive: true });
      await writeFile(join(out, 'notes.txt'), 'keep me\n');
      const refused = await runCommand(roundtrip, [input, '--out', out]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--force');
      expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('keep me\n');

      const forced = await runCommand(roundtrip, [input, '--out', out, '--force']);
      expect(forced.code).toBe(0);
      expect(existsSync(join(out, 'notes.txt'))).toBe(false);
      expect(lastJson(forced.stdout)).toMatchObject({ identical: 3, changed: 0, missing: 0, extra: 0 });

      // An earlier output is replaced without --force (the marker file is not reported as extra).
      await writeFile(join(out, 'leftover.md'), '# Left over\n');
      const again = await runCommand(roundtrip, [input, '--out', out]);
      expect(again.code).toBe(0);
      expect(lastJson(again.stdout)).toMatchObject({ identical: 3, extra: 0 });
      expect(existsSync(join(out, 'leftover.md'))).toBe(false);
    });

    it('an empty or absent --out is fine', async () => {
      const empty = join(work, 'empty');
      await mkdir(empty);
      expect((await runCommand(roundtrip, [input, '--out', empty])).code).toBe(0);
      expect((await runCommand(roundtrip, [input, '--out', join(work, 'absent', 'deeper')])).code).toBe(0);
    });

    it('a symlinked --out pointing into the input is refused', async () => {
      const { symlink } = await import('node:fs/promises');
      const link = join(work, 'link-to-input');
      await symlink(join(input, 'guide'), link);
      const r = await runCommand(roundtrip, [input, '--out', link]);
      expect(r.code).toBe(2);
      expect(await readFile(join(input, 'guide', 'README.md'), 'utf8')).toBe('# Guide\n');
    });
  });
});
