/**
 * The converter's version, as the parse cache keys it: a SHA-256 of the converter's own code (every file under
 * `src/format/`, as this process runs it: `.ts` from the sources, `.js` from `dist/`) and of the lock file that pins
 * its parser packages (remark, micromark, js-yaml, …). Any change to either gives a new version, so no summary a
 * different converter made is ever reused; nothing has to be bumped by hand.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../project-root.js';

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (/\.(ts|js|mjs|json)$/.test(e.name) && !e.name.endsWith('.map')) out.push(p);
  }
  return out;
}

/** Computes the version of the converter found in `formatDir` with the lock file `lockFile` (exported for tests). */
export function computeConverterVersion(formatDir: string, lockFile: string): string {
  const h = createHash('sha256');
  for (const file of filesUnder(formatDir).sort()) {
    h.update(path.relative(formatDir, file).replace(/\.(ts|js)$/, '')).update('\0');
    h.update(readFileSync(file)).update('\0');
  }
  h.update(existsSync(lockFile) ? readFileSync(lockFile) : 'no lock file');
  return h.digest('hex').slice(0, 32);
}

let cached: string | undefined;

/** This process's converter version (computed once). */
export function converterVersion(): string {
  if (cached === undefined) {
    const formatDir = fileURLToPath(new URL('../format/', import.meta.url));
    const root = projectRoot();
    const lock = path.join(root, 'package-lock.json');
    cached = computeConverterVersion(formatDir, existsSync(lock) ? lock : path.join(root, 'package.json'));
  }
  return cached;
}
