/**
 * `folio roundtrip <dir> [--root <projectDirectory>] --out <outDir> [--reserialize]`: import a
 * working tree, export it into <outDir> (everything Folio would write plus the unmanaged files
 * copied through) and print `{ pages, files, identical, changed, missing, extra }` against <dir>.
 */
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs, stringOption } from '../args.js';
import { readWorkingTree } from '../../format/source-tree.js';
import { roundtripTree } from '../../format/roundtrip.js';
import { isFolioError } from '../../errors.js';

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['reserialize', 'list']);
  const dir = args.positionals[0];
  const out = stringOption(args, 'out');
  if (!dir || !out) {
    process.stderr.write('usage: folio roundtrip <dir> [--root <projectDirectory>] --out <outDir> [--reserialize] [--list]\n');
    return 2;
  }
  if (resolve(out) === resolve(dir)) {
    process.stderr.write('folio roundtrip: --out must differ from the input directory\n');
    return 2;
  }
  const projectDirectory = stringOption(args, 'root');
  try {
    const tree = await readWorkingTree(dir);
    const result = await roundtripTree(tree, { ...(projectDirectory === undefined ? {} : { projectDirectory }), reserialize: args.options.reserialize === true });
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    for (const [path, entry] of result.output) {
      const target = join(out, path);
      await mkdir(dirname(target), { recursive: true });
      const bytes = await entry.read();
      if (entry.mode === '120000') await symlink(new TextDecoder().decode(bytes), target);
      else await writeFile(target, bytes);
    }
    // Measure what is actually on disk, not what we meant to write.
    const written = await readWorkingTree(out);
    const { compareTrees } = await import('../../format/roundtrip.js');
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
