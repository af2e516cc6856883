import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as check from '../../src/cli/commands/check.js';
import { corpusDir } from '../../src/project-root.js';
import { lastJson, runCommand } from './run-command.js';

const CORPUS = corpusDir();
const SMALL = join(CORPUS, 'GitbookIO+git-sync-normalization');
const PROJECT = join(CORPUS, 'stacks-network+docs');

describe('folio check', () => {
  let bad: string;
  beforeAll(async () => {
    bad = await mkdtemp(join(tmpdir(), 'folio-check-'));
    await mkdir(join(bad, 'guide'), { recursive: true });
    await writeFile(join(bad, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n* [Gone](gone.md)\n');
    await writeFile(join(bad, 'README.md'), '# Home\n\nSee [nowhere](nowhere.md) and ![img](.gitbook/assets/missing.png).\n');
    await writeFile(join(bad, 'guide', 'README.md'), '---\ndescription: [unclosed\n---\n\n# Guide\n');
    await writeFile(join(bad, 'stray.md'), '# Not listed\n');
  });
  afterAll(async () => {
    await rm(bad, { recursive: true, force: true });
  });

  it.skipIf(!existsSync(SMALL))('exits 0 on a clean corpus repository and prints the summary', async () => {
    const r = await runCommand(check, [SMALL]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summary = lastJson(r.stdout);
    // Every Markdown file but SUMMARY.md is a listed page.
    const pages = [...readdirSync(SMALL, { recursive: true })].filter((f) => String(f).endsWith('.md') && f !== 'SUMMARY.md').length;
    expect(summary).toMatchObject({ root: '', pages, errors: 0, unlisted: 0 });
    expect(summary.files).toEqual(expect.any(Number));
  });

  it('exits 1 on a bad tree and reports typed diagnostics (text and --json)', async () => {
    const text = await runCommand(check, [bad]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^error +FORMAT_SUMMARY_MISSING_FILE SUMMARY\.md:5 /m);
    expect(text.stdout).toMatch(/^info +FORMAT_PAGE_NOT_IN_SUMMARY stray\.md /m);

    const json = await runCommand(check, [bad, '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      root: string;
      pages: number;
      files: number;
      unlisted: number;
      errors: number;
      warnings: number;
      info: number;
      diagnostics: Array<{ code: string; severity: string; message: string; path?: string }>;
    };
    expect(Object.keys(report).sort()).toEqual(['diagnostics', 'errors', 'files', 'info', 'pages', 'root', 'unlisted', 'warnings']);
    expect(report).toMatchObject({ root: '', pages: 2, files: 0, unlisted: 1 });
    const codes = report.diagnostics.map((d) => d.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        'FORMAT_SUMMARY_MISSING_FILE',
        'FORMAT_FRONT_MATTER_INVALID',
        'FORMAT_LINK_UNRESOLVED',
        'FORMAT_ASSET_MISSING',
        'FORMAT_PAGE_NOT_IN_SUMMARY',
      ]),
    );
    for (const d of report.diagnostics) {
      expect(['error', 'warning', 'info']).toContain(d.severity);
      expect(d.message).toEqual(expect.any(String));
    }
    expect(report.errors).toBe(report.diagnostics.filter((d) => d.severity === 'error').length);
    expect(report.warnings).toBe(report.diagnostics.filter((d) => d.severity === 'warning').length);
    expect(report.info).toBe(report.diagnostics.filter((d) => d.severity === 'info').length);
    expect(report.diagnostics.find((d) => d.code === 'FORMAT_FRONT_MATTER_INVALID')?.path).toBe('guide/README.md');
  });

  it.skipIf(!existsSync(PROJECT))('--root selects the project directory inside the repository', async () => {
    const r = await runCommand(check, [PROJECT, '--root', 'docs/build', '--json']);
    const report = JSON.parse(r.stdout) as { root: string; pages: number; errors: number };
    expect(report.root).toBe('docs/build');
    expect(report.pages).toBeGreaterThan(50);
    expect(r.code).toBe(report.errors > 0 ? 1 : 0);
    // Without --root, the repository root is the space: a different (here: smaller) table of contents.
    const whole = JSON.parse((await runCommand(check, [PROJECT, '--json'])).stdout) as { root: string; pages: number };
    expect(whole.root).toBe('');
    expect(whole.pages).not.toBe(report.pages);
  });

  it('a typed error (root outside the repository) exits 1 with the code on stderr; no directory is a usage error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-check-root-'));
    try {
      await writeFile(join(dir, '.gitbook.yaml'), 'root: ../../elsewhere\n');
      await writeFile(join(dir, 'README.md'), '# Home\n');
      const r = await runCommand(check, [dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('FORMAT_ROOT_OUTSIDE_REPOSITORY');
      expect((await runCommand(check, [])).code).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
