import fs from 'node:fs';
import path from 'node:path';
import { corpusDir as findCorpus } from '../../../src/project-root.js';

export const corpusDir = findCorpus();

/** Gives the event loop a turn (long synchronous corpus loops would starve vitest's worker RPC). */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface CorpusRepo {
  name: string;
  dir: string;
  /** `.md` files (repo-relative) last written by GitBook, excluding SUMMARY.md. */
  written: string[];
  /** Every `.md` file in the copy. */
  all: string[];
}

function listMd(dir: string, base = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listMd(dir, rel));
    else if (e.name.endsWith('.md')) out.push(rel);
  }
  return out.sort();
}

export function corpusRepos(): CorpusRepo[] {
  if (!fs.existsSync(corpusDir)) return [];
  return fs
    .readdirSync(corpusDir)
    .filter((f) => f.endsWith('.gitbook-written.txt'))
    .sort()
    .map((f) => {
      const name = f.slice(0, -'.gitbook-written.txt'.length);
      const dir = path.join(corpusDir, name);
      const written = fs
        .readFileSync(path.join(corpusDir, f), 'utf8')
        .split('\n')
        .filter((x) => x.endsWith('.md') && path.basename(x) !== 'SUMMARY.md' && fs.existsSync(path.join(dir, x)));
      return { name, dir, written, all: listMd(dir) };
    });
}
