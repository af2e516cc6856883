/**
 * Whether `npm run build`'s output (dist/) is up to date with the sources, so tests may use its compiled parse
 * thread and workflow bundle (`npm test` builds first; a developer who edited a source since runs the sources).
 * Up to date: every .ts file under src/, activities/ and workflows/ has its compiled .js in dist/, at least as new
 * as the source (tsc is incremental: it rewrites only what changed), and the workflow bundle (rewritten by every
 * build) is newer than every source.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '../..');

export type CompiledBuild = { fresh: true; parseThread: string; workflowBundle: string } | { fresh: false; reason: string };

/** The first source (repository-relative) whose compiled file is missing or older than the source or than `bundleMs`. */
function staleSource(bundleMs: number): string | null {
  for (const dir of ['src', 'activities', 'workflows']) {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
      const source = path.join(entry.parentPath, entry.name);
      const rel = path.relative(root, source);
      const compiled = path.join(root, 'dist', rel.replace(/\.ts$/, '.js'));
      const sourceMs = statSync(source).mtimeMs;
      if (!existsSync(compiled) || statSync(compiled).mtimeMs < sourceMs || bundleMs < sourceMs) return rel;
    }
  }
  return null;
}

export function compiledBuild(): CompiledBuild {
  const thread = path.join(root, 'dist', 'src', 'parse-threads', 'thread.js');
  const bundle = path.join(root, 'dist', 'workflow-bundle.js');
  if (!existsSync(thread) || !existsSync(bundle)) return { fresh: false, reason: 'dist/ has no build' };
  const stale = staleSource(statSync(bundle).mtimeMs);
  if (stale) return { fresh: false, reason: `dist/ is older than ${stale}` };
  return { fresh: true, parseThread: pathToFileURL(thread).href, workflowBundle: bundle };
}
