/**
 * Bundles Folio's workflows once at build time (`npm run build`), so a worker starts without running webpack.
 * Writes dist/workflow-bundle.js; the worker falls back to bundling at start when it is missing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { projectRoot } from '../../project-root.js';
import { prebuiltBundlePath, workflowsPath } from './worker.js';

export async function bundleWorkflows(outFile = prebuiltBundlePath()): Promise<{ file: string; bytes: number }> {
  const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath({ preferCompiled: true }), logger: new DefaultLogger('WARN') });
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, code);
  return { file: path.relative(projectRoot(), outFile), bytes: code.length };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  bundleWorkflows().then(
    ({ file, bytes }) => process.stderr.write(`[bundle-workflows] ${file} (${(bytes / 1024 / 1024).toFixed(2)} MB)\n`),
    (err: unknown) => {
      process.stderr.write(`[bundle-workflows] ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
