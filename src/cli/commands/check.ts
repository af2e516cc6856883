/** `folio check <dir> [--root <projectDirectory>] [--json]`: import a working tree and report pages, files and warnings. */
import { parseArgs, stringOption } from '../args.js';
import { importTree, readWorkingTree } from '../../format/index.js';
import { isFolioError } from '../../errors.js';

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['json', 'quiet']);
  const dir = args.positionals[0];
  if (!dir) {
    process.stderr.write('usage: folio check <dir> [--root <projectDirectory>] [--json] [--quiet]\n');
    return 2;
  }
  const projectDirectory = stringOption(args, 'root');
  try {
    const tree = await readWorkingTree(dir);
    const result = await importTree(tree, projectDirectory === undefined ? {} : { projectDirectory });
    const errors = result.warnings.filter((w) => w.severity === 'error');
    const summary = {
      root: result.revision.config.root,
      pages: result.stats.pages,
      files: result.stats.files,
      unlisted: result.stats.unlisted,
      errors: errors.length,
      warnings: result.warnings.filter((w) => w.severity === 'warning').length,
      info: result.warnings.filter((w) => w.severity === 'info').length,
    };
    if (args.options.json === true) {
      process.stdout.write(JSON.stringify({ ...summary, diagnostics: result.warnings }) + '\n');
    } else {
      for (const w of result.warnings) {
        if (args.options.quiet === true && w.severity === 'info') continue;
        process.stdout.write(`${w.severity.padEnd(7)} ${w.code} ${w.path ?? ''}${w.line !== undefined ? `:${w.line}` : ''} ${w.message}\n`);
      }
      process.stdout.write(JSON.stringify(summary) + '\n');
    }
    return errors.length > 0 ? 1 : 0;
  } catch (err) {
    if (isFolioError(err)) {
      process.stderr.write(`folio check: ${err.code}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
