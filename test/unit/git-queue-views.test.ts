/** The git queue views git/info keeps for a moment: per organization and space, fresh after a queued request. */
import { describe, expect, it } from 'vitest';
import { GitQueueViews } from '../../src/api/git-queue-views.js';
import type { GitQueueView } from '../../src/temporal/contract/index.js';

const view = (spaceId: string, processed: number): GitQueueView => ({
  spaceId,
  running: null,
  pending: [],
  lastApplied: {},
  recent: [],
  processed,
  dropped: 0,
  runs: 1,
});

describe('git queue views', () => {
  it('asks once within the time it keeps a view, then again; a queued request makes the next one fresh', async () => {
    let clock = 0;
    const views = new GitQueueViews({ ttlMs: 500, now: () => clock });
    let asked = 0;
    const query = async () => view('s', ++asked);
    const space = { organizationId: 'o', id: 's' };
    expect((await views.get(space, query))?.processed).toBe(1);
    clock = 499;
    expect((await views.get(space, query))?.processed).toBe(1);
    clock = 500;
    expect((await views.get(space, query))?.processed).toBe(2);
    views.forget(space);
    expect((await views.get(space, query))?.processed).toBe(3);
    expect(asked).toBe(3);
  });

  it('keeps views per organization and space, never across', async () => {
    const views = new GitQueueViews({ now: () => 0 });
    await views.get({ organizationId: 'a', id: 's' }, async () => view('s', 1));
    // The same space id under another organization is another entry (ids are never trusted alone).
    expect((await views.get({ organizationId: 'b', id: 's' }, async () => view('s', 2)))?.processed).toBe(2);
    expect((await views.get({ organizationId: 'a', id: 's' }, async () => view('s', 3)))?.processed).toBe(1);
  });

  it('shares one query between concurrent calls, keeps no failure, and is bounded', async () => {
    const views = new GitQueueViews({ now: () => 0, maxSpaces: 2 });
    let asked = 0;
    const slow = () => new Promise<GitQueueView>((r) => setTimeout(() => r(view('s', ++asked)), 10));
    const [a, b] = await Promise.all([views.get({ organizationId: 'o', id: 's' }, slow), views.get({ organizationId: 'o', id: 's' }, slow)]);
    expect(a).toBe(b);
    expect(asked).toBe(1);
    const failing = { organizationId: 'o', id: 'f' };
    await expect(views.get(failing, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await views.get(failing, async () => view('f', 9)))?.processed).toBe(9);
    // A third space pushes out the oldest one.
    await views.get({ organizationId: 'o', id: 't' }, async () => view('t', 1));
    expect((await views.get({ organizationId: 'o', id: 's' }, async () => view('s', 42)))?.processed).toBe(42);
  });
});
