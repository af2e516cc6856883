// `npm start`'s build step: runs `npm run build` only when the sources differ from those of the last build made here.
// The digest covers the content of every file tsc and the workflow bundle read (src, workflows, activities, bench, the
// package and TypeScript settings); it is written to dist/ after a build that succeeded, so a failed or interrupted
// build is redone, and an edited, added or removed file makes the next start build again. Plain JavaScript: it runs
// before anything is compiled.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const INPUTS = ['src', 'workflows', 'activities', 'bench', 'package.json', 'package-lock.json', 'tsconfig.json'];
export const OUTPUTS = ['dist/src/cli/folio.js', 'dist/workflow-bundle.js'];
export const STAMP = 'dist/.sources.sha256';

function* filesUnder(root, rel) {
  const full = path.join(root, rel);
  if (!existsSync(full)) return;
  if (!statSync(full).isDirectory()) {
    yield rel;
    return;
  }
  for (const name of readdirSync(full).sort()) yield* filesUnder(root, path.join(rel, name));
}

/** sha256 over the paths and contents of the inputs under `root`. */
export function sourcesDigest(root) {
  const h = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of filesUnder(root, input)) {
      h.update(`${file}\0`);
      h.update(readFileSync(path.join(root, file)));
      h.update('\0');
    }
  }
  return h.digest('hex');
}

/** Builds with `build()` (true: it succeeded) unless the outputs exist and the stamp names the current sources. */
export function buildIfChanged(root, build) {
  const digest = sourcesDigest(root);
  const stampFile = path.join(root, STAMP);
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  const outputsThere = OUTPUTS.every((o) => existsSync(path.join(root, o)));
  if (outputsThere && stamp === digest) return { built: false, reason: 'sources unchanged since the last build' };
  const reason = !outputsThere ? 'no compiled output' : stamp === '' ? 'no record of the last build' : 'sources changed';
  if (!build()) throw new Error(`the build failed (${reason})`);
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${digest}\n`);
  return { built: true, reason };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const started = Date.now();
  try {
    const result = buildIfChanged(root, () => spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' }).status === 0);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stderr.write(result.built ? `[build] built in ${seconds} s (${result.reason})\n` : `[build] ${result.reason}: dist/ reused (${seconds} s)\n`);
  } catch (err) {
    process.stderr.write(`[build] ${err.message}\n`);
    process.exit(1);
  }
}
