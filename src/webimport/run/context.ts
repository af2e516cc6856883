/**
 * What the phases of an import run share (src/webimport/run/crawl.ts, build.ts): the dependencies, the run's record,
 * its progress. A website import and a file import are one pipeline (one workflow, one run record, one revision
 * built the same way); only their sources differ (`website-source.ts`, src/fileimport/uploads.ts).
 */
import type { Config } from '../../config/config.js';
import type { ParsePool } from '../../parse-threads/pool.js';
import type { ImportRunRecord, Store } from '../../store/index.js';
import { ImportRunNotFoundError } from '../errors.js';
import type { RunProgress } from './progress.js';

/** What an import run is given (the activities' dependencies). */
export interface ImportRunDeps {
  store: Store;
  config: Config;
  /** The parse pool, asked for on first use (its threads start then). */
  parsePool(): ParsePool;
}

export interface ImportRunRef {
  runId: string;
  organizationId: string;
}

/** A phase's view of the run. */
export interface ImportRunContext {
  readonly deps: ImportRunDeps;
  readonly run: ImportRunRecord;
  readonly progress: RunProgress;
}

/** Warnings kept on the run (the first ones; the count says how many there were). */
export const MAX_WARNINGS = 200;

/** The run of `ref` (ImportRunNotFoundError when it is not in the store, or of another organization). */
export async function loadRun(store: Store, ref: ImportRunRef): Promise<ImportRunRecord> {
  const run = await store.imports.get(ref.organizationId, ref.runId);
  if (!run) throw new ImportRunNotFoundError(ref.runId);
  return run;
}

/** The parse pool's task options of this phase: its cancellation. */
export function onPool(progress: RunProgress): { signal?: AbortSignal } {
  const signal = progress.control.signal;
  return signal ? { signal } : {};
}
