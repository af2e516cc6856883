/**
 * Activity logs carry their context: a git import (through the HTTP API, a real worker on the dev server) that the
 * fetch guard refuses makes `gitFinishOperation` log `git operation failed`; that line carries the workflow id,
 * run id, activity type, attempt, organization and space of the activity, given once by `createActivities`, and
 * no credential of the import's URL appears in any line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';

let work: string;
let folio: TestFolio;
const lines: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-activity-logger-'));
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const logger = createLogger('folio', { level: 'info', pretty: false, destination: sink });
  // No FETCH_ALLOW_HOSTS: the import of a loopback URL is refused, without any server.
  folio = await startFolio({ env: { DATA_DIR: path.join(work, 'data'), FOLIO_VAULT_KEY: 'activity-logger-key' }, logger });
});

afterAll(async () => {
  await folio?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function waitForLine(predicate: (entry: Record<string, unknown>) => boolean, timeoutMs = 90_000): Promise<Record<string, unknown>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    for (const line of lines) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (predicate(entry)) return entry;
    }
    if (Date.now() > end) throw new Error(`no such log line; got:\n${lines.join('\n').slice(0, 4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('activity child loggers', () => {
  it('a log line of an activity carries workflowId, runId, activity, attempt, organizationId and spaceId', async () => {
    const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Logged' });
    expect(created.status).toBe(201);
    const spaceId = created.body.id as string;
    const url = 'http://alice:s3cret-pw@127.0.0.1:9/docs.git';
    const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/main', timestamp: new Date().toISOString() });
    expect(res.status, JSON.stringify(res.body)).toBe(204);

    const entry = await waitForLine((e) => e.msg === 'git operation failed' && e.spaceId === spaceId);
    expect(entry).toMatchObject({
      level: 40,
      activity: 'gitFinishOperation',
      attempt: 1,
      organizationId: folio.organizationId,
      spaceId,
      component: 'git-sync',
      code: 'FETCH_PRIVATE_ADDRESS_DENIED',
    });
    expect(typeof entry.activityId).toBe('string');
    // The run that called the activity: the import workflow of this space, as Temporal knows it.
    const run = await folio.client.workflow.getHandle(entry.workflowId as string, entry.runId as string).describe();
    expect(run.type).toBe('gitImportWorkflow');
    expect(run.runId).toBe(entry.runId);
    expect(entry.workflowId).toContain(spaceId);
    // Each field once in the line (bound once, not added again per call).
    const raw = lines.find((l) => l.includes('"git operation failed"') && l.includes(spaceId))!;
    for (const key of ['workflowId', 'runId', 'activity', 'attempt', 'organizationId', 'spaceId']) {
      expect(raw.split(`"${key}":`).length - 1, key).toBe(1);
    }
    expect(lines.join('\n')).not.toContain('s3cret-pw');
  });
});
