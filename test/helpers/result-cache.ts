/**
 * A pure computation of a test kept between runs, keyed by the content of everything it reads: the corpus tests
 * parse every page of ../shared/corpus (minutes of CPU), and a second run with the same sources, packages, test
 * files and corpus gets the same figures. The key hashes every source file of Folio (src/, activities/,
 * workflows/), package-lock.json, Node's version, the test files the caller names (its own file and its helpers) and the caller's
 * input (e.g. each corpus page's bytes): any change to one of them computes anew. Only the computed data is kept,
 * never a verdict: the tests assert on it as on a fresh computation, so a failing figure fails again from the cache.
 *
 * Kept where the PGlite template of the global setup is kept (the system's temporary directory, one directory per
 * user, mode 0700). On a clean checkout or machine the cache is empty and everything is computed.
 */
import { createHash, type Hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

let sourcesDigest: string | undefined;

/** A hash of Folio's sources (every file under src/, activities/, workflows/), package-lock.json and Node's version. */
function sourcesHash(): string {
  if (sourcesDigest) return sourcesDigest;
  const hash = createHash('sha256');
  for (const dir of ['src', 'activities', 'workflows']) {
    const files = readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
    for (const f of files) hash.update(path.relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  }
  // The parsers' results also depend on the engine (regular expressions, Unicode tables).
  hash
    .update(readFileSync(path.join(ROOT, 'package-lock.json')))
    .update('\0')
    .update(process.version);
  sourcesDigest = hash.digest('hex');
  return sourcesDigest;
}

export function cacheDir(): string {
  return path.join(os.tmpdir(), `folio-test-cache-${os.userInfo().uid}`);
}

/**
 * `compute()`'s result (JSON) for `name`, from the cache when Folio's sources, `testFiles` (repository-relative)
 * and what `input` adds to the hash are unchanged since a run that stored it; else computed and stored.
 */
export async function cachedResult<T>(name: string, testFiles: string[], input: (hash: Hash) => void, compute: () => Promise<T>): Promise<T> {
  const hash = createHash('sha256').update(sourcesHash()).update('\0').update(name).update('\0');
  for (const f of testFiles)
    hash
      .update(f)
      .update('\0')
      .update(readFileSync(path.join(ROOT, f)))
      .update('\0');
  input(hash);
  const file = path.join(cacheDir(), `result-${name.replace(/[^\w.-]/g, '_')}-${hash.digest('hex').slice(0, 24)}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    // Not stored yet (or unreadable): computed below.
  }
  const result = await compute();
  // Written whole under another name, then renamed: a run starting meanwhile never reads half a result. Where the
  // cache cannot be written, the result is simply not kept.
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(result));
    renameSync(partial, file);
  } catch {
    // Not kept: the next run computes again.
  }
  return result;
}
