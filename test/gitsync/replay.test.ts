/**
 * Workflow code changes replay the histories of runs made by earlier code (`patched()` around changed command
 * sequences): the git queue and its import, export and search-index children (an applied import with a
 * search-index child, a no-op, a failed and a stale import, an export), recorded with each version of the workflow
 * code, one directory per version under fixtures/histories (1: bookkeeping as activities, 2: as local activities, 3: in
 * the operation activity, with a failure recorded and credentials forgotten by local activities), recorded by
 * `record-histories.ts`.
 * A non-deterministic change fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { installTestRuntime } from '../helpers/sdk-runtime.js';

const dir = path.join(import.meta.dirname, 'fixtures', 'histories');

describe('workflow replay', () => {
  it('replays every recorded history with the current workflow code', async () => {
    installTestRuntime();
    const files = readdirSync(dir).flatMap((version) => readdirSync(path.join(dir, version)).map((f) => path.join(version, f)));
    expect(files.filter((f) => f.endsWith('.json')).length).toBeGreaterThanOrEqual(22);
    const histories = files.map((f) => ({
      workflowId: f.replace(/\.json$/, ''),
      history: historyFromJSON(JSON.parse(readFileSync(path.join(dir, f), 'utf8'))),
    }));
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories({ workflowBundle: { codePath: inject('workflowBundlePath') } }, histories)) {
      replayed++;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.name}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(files.length);
  });
});
