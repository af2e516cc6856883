/**
 * Vitest global setup: one real Temporal dev server (the official CLI, in memory, headless, on a free port, with
 * Folio's search attributes and a raised workflow-task timeout) and one workflow bundle shared by all test files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { ensureTemporalBinaries } from '../../src/temporal/install-binaries.js';
import { spawnDevServer, waitForTemporal } from '../../src/temporal/dev-server.js';
import { freePort } from '../helpers/free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    testServerPath: string;
    pgliteTemplatePath: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { cli, testServer } = ensureTemporalBinaries({ quiet: true });
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const server: ChildProcess = spawnDevServer({ binary: cli, port, headless: true, logLevel: 'error', workflowTaskTimeout: '60s', stdio: 'ignore' });
  let exited = false;
  server.once('exit', () => {
    exited = true;
  });
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'folio-test-'));
  try {
    const templatePath = path.join(tmp, 'pglite-template.tar');
    const [, bundle] = await Promise.all([
      waitForTemporal(address, { timeoutMs: 90_000, isAlive: () => !exited }),
      bundleWorkflowCode({ workflowsPath: path.resolve(import.meta.dirname, '../../workflows/index.ts'), logger: new DefaultLogger('WARN') }),
      // One initdb for the whole run: test stores start from this dump instead of running initdb each.
      (async () => {
        const { PGlite } = await import('@electric-sql/pglite');
        const db = await PGlite.create();
        const dump = await db.dumpDataDir('none');
        await db.close();
        writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()));
      })(),
    ]);
    project.provide('pgliteTemplatePath', templatePath);
    const bundlePath = path.join(tmp, 'workflow-bundle.js');
    writeFileSync(bundlePath, bundle.code);
    project.provide('temporalAddress', address);
    project.provide('workflowBundlePath', bundlePath);
    project.provide('testServerPath', testServer ?? '');
  } catch (err) {
    server.kill('SIGKILL');
    throw err;
  }
  return async () => {
    if (!exited) {
      const gone = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    }
    rmSync(tmp, { recursive: true, force: true });
  };
}
