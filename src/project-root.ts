import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory holding Folio's package.json, found upward from this module (works from src/ and dist/src/). */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'tsconfig.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the Folio project root (package.json) above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/**
 * The corpus of real GitBook repositories used by tests and benchmarks: FOLIO_CORPUS, else `shared/corpus` beside
 * the checkout, else /work/shared/corpus.
 */
export function corpusDir(): string {
  if (process.env.FOLIO_CORPUS) return path.resolve(process.env.FOLIO_CORPUS);
  const beside = path.resolve(projectRoot(), '..', 'shared', 'corpus');
  return existsSync(beside) ? beside : '/work/shared/corpus';
}
