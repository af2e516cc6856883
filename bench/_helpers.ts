/** What the benchmarks share: the median, command-line options, the corpus's project directories and its markdown files. (Not a benchmark: run.ts skips `_` files.) */
import { existsSync, readFileSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
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

/** The files below `dir` (outside `.git`) whose name matches `pattern` (default: `.md` and `.mdx`), depth first. */
export async function markdownFiles(dir: string, pattern = /\.mdx?$/i): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === '.git') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await markdownFiles(p, pattern)));
    else if (pattern.test(e.name)) out.push(p);
  }
  return out;
}

/** BENCH_CPU_PROF: starts the profiler; the returned function stops it and writes the profile. */
export async function startProfile(): Promise<() => Promise<void>> {
  const profile = process.env.BENCH_CPU_PROF;
  if (!profile) return async () => undefined;
  const inspector = new Session();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
  await inspector.post('Profiler.start');
  return async () => {
    const { profile: cpu } = await inspector.post('Profiler.stop');
    await writeFile(profile, JSON.stringify(cpu));
    inspector.disconnect();
  };
}
