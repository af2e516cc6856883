/** What the benchmarks share: the median, command-line options and the corpus's project directories. (Not a benchmark: run.ts skips `_` files.) */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir } from '../src/project-root.js';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The value of `--<name> <value>` on the command line, or `fallback`. */
export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/** Project directory of a corpus copy: repository root when its .gitbook.yaml sets `root`, else the docs root. */
export function projectDirectoryOf(repo: string, corpus = corpusDir()): string {
  const source = readFileSync(join(corpus, `${repo}.source`), 'utf8');
  const root = /^root:\s*(.*)$/m.exec(source)?.[1]?.trim() ?? '.';
  const top = join(corpus, repo, '.gitbook.yaml');
  if (existsSync(top) && /^\s*root:/m.test(readFileSync(top, 'utf8'))) return '';
  return root === '.' ? '' : root;
}
