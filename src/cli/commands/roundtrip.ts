/**
 * `folio roundtrip <dir> [--root <projectDirectory>] --out <outDir> [--reserialize]`: import a
 * working tree, export it into <outDir> (everything Folio would write plus the unmanaged files
 * copied through) and print `{ pages, files, identical, changed, missing, extra }` against <dir>.
 * <outDir> is replaced: it must not be, contain or lie inside <dir>, and a non-empty directory that
 * is not an earlier roundtrip output is refused unless `--force`.
 */
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs, stringOption } from '../args.js';
import { readWorkingTree, roundtripTree } from '../../format/index.js';
import { isFolioError } from '../../errors.js';
import { checkOutputDirectory, OUTPUT_MARKER, writeOutputMarker } from '../output-directory.js';

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['reserialize', 'list', 'force']);
  const dir = args.positionals[0];
  const out = stringOption(args, 'out');
  if (!dir || !out) {
    process.stderr.write('usage: folio roundtrip <dir> [--root <projectDirectory>] --out <outDir> [--reserialize] [--list] [--force]\n');
    return 2;
  }
  const check = await checkOutputDirectory(dir, out, args.options.force === true);
  if (!check.ok) {
    process.stderr.write(`folio roundtrip: ${check.reason}\n`);
    return 2;
  }
  const projectDirectory = stringOption(args, 'root');
  try {
    const tree = await readWorkingTree(dir);
    const result = await roundtripTree(tree, {
      ...(projectDirectory === undefined ? {} : { projectDirectory }),
      reserialize: args.options.reserialize === true,
    });
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    await writeOutputMarker(out);
    for (const [path, entry] of result.output) {
      const target = join(out, path);
      await mkdir(dirname(target), { recursive: true });
      const bytes = await entry.read();
      if (entry.mode === '120000') await symlink(new TextDecoder().decode(bytes), target);
      else await writeFile(target, bytes);
    }
    // Measure what is actually on disk, not what we meant to write.
    const written = await readWorkingTree(out);
    written.delete(OUTPUT_MARKER);
    const { compareTrees } = await import('../../format/index.js');
    const cmp = compareTrees(tree, written);
    const report: Record<string, unknown> = {
      pages: result.imported.stats.pages,
      files: result.imported.stats.files,
      identical: cmp.identical,
      changed: cmp.changed.length,
      missing: cmp.missing.length,
      extra: cmp.extra.length,
    };
    if (args.options.list === true) Object.assign(report, { changedPaths: cmp.changed, missingPaths: cmp.missing, extraPaths: cmp.extra });
    process.stdout.write(JSON.stringify(report) + '\n');
    return 0;
  } catch (err) {
    if (isFolioError(err)) {
      process.stderr.write(`folio roundtrip: ${err.code}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
