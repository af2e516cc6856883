/**
 * Issue 30 ("a second run with the embedded defaults"), small: the scenario of production-shape.test.ts against one
 * `folio start` with nothing configured (PGlite served by its db-server child, blobs in the database, the Temporal
 * dev server it starts, one worker, one API): 12 git imports, change requests, exports, publishes, OpenAPI imports
 * and website imports over 2 organizations; a third of the way through its worker child is SIGKILLed (the
 * supervisor starts it again), at two thirds `folio start` itself is SIGKILLed and started again on the same
 * DATA_DIR. Every operation is done exactly once: none lost, none duplicated. No timing is asserted. Requires
 * `npm run build`.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { folioEntry } from '../helpers/folio-service.js';
import { KINDS, runProductionShape } from '../helpers/production-shape/scenario.js';

describe.runIf(existsSync(folioEntry))('production shape, embedded defaults: one folio start', () => {
  it('accounts for every operation: done once, none lost, none duplicated, through a SIGKILLed worker and a SIGKILLed folio start', async () => {
    const result = await runProductionShape({
      mode: 'embedded',
      operations: 12,
      workers: [1],
      organizations: 2,
      lanes: 3,
      operationTimeoutMs: 300_000,
      // A git import or export whose worker was killed is retried after 10 s without a heartbeat, not 60 s.
      settings: { FOLIO_GIT_HEARTBEAT_TIMEOUT_MS: '10000' },
      log: (line) => process.stderr.write(`production-shape (embedded): ${line}\n`),
    });
    process.stderr.write(`${JSON.stringify(result)}\n`);
    expect(result.problems).toEqual([]);
    expect(result.spaceProblems).toEqual([]);
    expect(result.deploymentChecks.problems).toEqual([]);
    expect({ operations: result.operations, done: result.done, lost: result.lost, duplicated: result.duplicated }).toEqual({
      operations: 12,
      done: 12,
      lost: 0,
      duplicated: 0,
    });
    for (const kind of KINDS) expect(result.phases[0]!.byKind[kind]!.count, kind).toBeGreaterThan(0);
    const disruptions = result.phases[0]!.disruptions;
    expect(disruptions.filter((d) => d.startsWith('SIGKILL'))).toHaveLength(2);
    expect(disruptions.some((d) => d.startsWith('folio start started again'))).toBe(true);
  }, 1_200_000);
});
