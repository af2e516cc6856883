/**
 * Issue 28, item 1: content events are recorded by the store members that commit the facts, numbered per stream
 * (the space), once per fact (a retried call records nothing twice), and fanned out as pending deliveries to the
 * installations that cover them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { createTestStore } from '../helpers/store.js';

let store: Store;
const ORG = 'events-org';

async function newRevision(spaceId: string, text: string): Promise<string> {
  const space = (await store.spaces.get(spaceId))!;
  const { id } = await store.revisions.create({
    spaceId,
    parents: space.revisionId ? [space.revisionId] : [],
    type: 'edits',
    pages: [{ id: 'p1', kind: 'document', title: 'One', slug: 'one', path: 'one', body: new TextEncoder().encode(`# One\n\n${text}\n`) }],
    files: [],
  });
  return id;
}

beforeAll(async () => {
  store = await createTestStore();
  await store.orgs.create({ id: ORG, title: 'Events' });
  await store.orgs.create({ id: 'events-other', title: 'Other' });
});
afterAll(async () => {
  await store?.close();
});

describe('content events', () => {
  it('a new primary revision is recorded once, numbered in its space, with both revision ids', async () => {
    const space = await store.spaces.create(ORG, { title: 'A' });
    const before = (await store.spaces.get(space.id))!.revisionId;
    const r1 = await newRevision(space.id, 'first');
    await store.spaces.setPrimaryRevision(space.id, r1);
    // A retried activity sets the same revision again: no second event.
    await store.spaces.setPrimaryRevision(space.id, r1);
    const r2 = await newRevision(space.id, 'second');
    await store.spaces.setPrimaryRevision(space.id, r2, { expected: r1 });
    const { items } = await store.events.list(ORG, { limit: 100, stream: space.id });
    expect(items.map((e) => [e.type, e.seq, e.payload.revisionId, e.payload.previousRevisionId])).toEqual([
      ['space_content_updated', 1, r1, before],
      ['space_content_updated', 2, r2, r1],
    ]);
    expect(items[0]!.payload).toMatchObject({ eventId: items[0]!.id, type: 'space_content_updated', spaceId: space.id, updatedBy: [] });
  });

  it('change requests opened, closed and merged; the other organization sees none of it', async () => {
    const space = await store.spaces.create(ORG, { title: 'B' });
    const rev = await newRevision(space.id, 'b');
    const a = await store.changeRequests.create({ spaceId: space.id, revisionId: rev, subject: 'a' });
    const draft = await store.changeRequests.create({ spaceId: space.id, revisionId: rev, subject: 'd', status: 'draft' });
    await store.changeRequests.update(space.id, a.id, { status: 'archived' });
    await store.changeRequests.update(space.id, a.id, { subject: 'renamed' });
    await store.changeRequests.markMerged(draft.id, rev);
    await store.changeRequests.markMerged(draft.id, rev);
    const { items } = await store.events.list(ORG, { limit: 100, stream: space.id });
    expect(items.map((e) => [e.type, e.seq, e.payload.changeRequestId])).toEqual([
      ['change_request_opened', 1, a.id],
      ['change_request_closed', 2, a.id],
      ['change_request_updated', 3, a.id],
      ['change_request_merged', 4, draft.id],
    ]);
    expect(items[2]!.payload).toMatchObject({ changes: ['subject'], status: 'archived' });
    expect((await store.events.list('events-other', { limit: 100 })).items).toEqual([]);
  });

  it('change requests updated: new content, a new subject, back to draft; nothing when nothing changed', async () => {
    const space = await store.spaces.create(ORG, { title: 'U' });
    const rev = await newRevision(space.id, 'u');
    const cr = await store.changeRequests.create({ spaceId: space.id, revisionId: rev, subject: 's' });
    const edited = await newRevision(space.id, 'u2');
    await store.changeRequests.setRevision(cr.id, edited, rev);
    // Retried with the same revision (the activity ran twice): no second event.
    await store.changeRequests.setRevision(cr.id, edited, edited);
    await store.changeRequests.update(space.id, cr.id, { subject: 's' });
    await store.changeRequests.update(space.id, cr.id, { subject: 't', status: 'draft' });
    await store.changeRequests.update(space.id, cr.id, { status: 'open' });
    const { items } = await store.events.list(ORG, { limit: 100, stream: space.id });
    expect(items.map((e) => [e.type, e.payload.changes ?? null])).toEqual([
      ['change_request_opened', null],
      ['change_request_updated', ['revision']],
      ['change_request_updated', ['subject', 'status']],
      ['change_request_opened', null],
    ]);
    expect(items[1]!.payload).toMatchObject({ changeRequestId: cr.id, revisionId: edited, previousRevisionId: rev });
  });

  it('comments created (comments and replies) and updated (text, resolution; not reactions), in their space’s stream', async () => {
    const space = await store.spaces.create(ORG, { title: 'K' });
    const rev = await newRevision(space.id, 'k');
    const cr = await store.changeRequests.create({ spaceId: space.id, revisionId: rev, subject: 'k' });
    const scope = { spaceId: space.id, changeRequestId: cr.id };
    const c = await store.comments.create({ ...scope, organizationId: ORG, postedBy: 'user-a', body: 'Hello', revisionId: rev });
    const reply = await store.comments.reply(scope, c.id, { postedBy: 'user-b', body: 'Hi' });
    await store.comments.update(scope, c.id, { actor: 'user-a', body: 'Hello!' });
    await store.comments.update(scope, c.id, { actor: 'user-a', body: 'Hello!', addedReactions: ['👍'] });
    await store.comments.update(scope, c.id, { actor: 'user-b', resolved: true });
    await store.comments.update(scope, c.id, { actor: 'user-b', resolved: true });
    await store.comments.updateReply(scope, c.id, reply.id, { actor: 'user-b', body: 'Hi!' });
    const { items } = await store.events.list(ORG, { limit: 100, stream: space.id });
    expect(items.slice(1).map((e) => [e.type, e.payload.commentId, e.payload.replyId ?? null, e.payload.changes ?? null])).toEqual([
      ['comment_created', c.id, null, null],
      ['comment_created', c.id, reply.id, null],
      ['comment_updated', c.id, null, ['body']],
      ['comment_updated', c.id, null, ['resolved']],
      ['comment_updated', c.id, reply.id, ['body']],
    ]);
    expect(items[1]!.payload).toMatchObject({ spaceId: space.id, changeRequestId: cr.id, postedBy: 'user-a' });
    expect(JSON.stringify(items.map((e) => e.payload))).not.toContain('Hello');
  });

  it('concurrent changes of one space are numbered 1..n without gaps or duplicates', async () => {
    const space = await store.spaces.create(ORG, { title: 'C' });
    const rev = await newRevision(space.id, 'c');
    await Promise.all(Array.from({ length: 12 }, (_, i) => store.changeRequests.create({ spaceId: space.id, revisionId: rev, subject: `cr${i}` })));
    const { items } = await store.events.list(ORG, { limit: 100, stream: space.id });
    expect(items.map((e) => e.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('a site’s events go to the installations whose site selection covers the site; a site of another organization is refused', async () => {
    const [a, b] = [await store.sites.create(ORG, { title: 'Site A' }), await store.sites.create(ORG, { title: 'Site B' })];
    const theirs = await store.sites.create('events-other', { title: 'Theirs' });
    await store.integrations.publish('site-hook', {
      organizationId: ORG,
      title: 'Sites',
      description: 'd',
      target: 'site',
      visibility: 'private',
      scopes: [],
      categories: [],
    });
    const installation = (await store.integrations.install('site-hook', ORG)).installation;
    await expect(store.integrations.updateInstallation(installation.id, { siteSelection: 'selected', sites: [theirs.id] })).rejects.toThrow(/site not found/);
    const updated = await store.integrations.updateInstallation(installation.id, { siteSelection: 'selected', sites: [b.id] });
    expect(updated).toMatchObject({ siteSelection: 'selected', sites: [b.id], spaceSelection: 'all' });
    for (const site of [a, b]) {
      const { publication } = await store.sites.createPublication({
        siteId: site.id,
        requestKey: 'k1',
        structure: { siteSpaces: [] },
        files: [],
        rendered: 0,
        reused: 0,
      });
      await store.sites.goLive(site.id, publication.id);
    }
    const pending = await store.integrations.pendingDeliveries(installation.id, 100);
    expect(pending.map((d) => [d.event.type, d.event.payload.siteId])).toEqual([['site_published', b.id]]);
  });

  it('each event becomes one pending delivery per active installation covering its space', async () => {
    const s1 = await store.spaces.create(ORG, { title: 'D1' });
    const s2 = await store.spaces.create(ORG, { title: 'D2' });
    await store.integrations.publish('events-hook', {
      organizationId: ORG,
      title: 'Hook',
      description: 'd',
      target: 'all',
      visibility: 'private',
      scopes: [],
      categories: [],
    });
    const all = (await store.integrations.install('events-hook', ORG)).installation;
    await store.integrations.publish('events-hook-2', {
      organizationId: ORG,
      title: 'Hook 2',
      description: 'd',
      target: 'all',
      visibility: 'private',
      scopes: [],
      categories: [],
    });
    const some = (await store.integrations.install('events-hook-2', ORG)).installation;
    await store.integrations.updateInstallation(some.id, { spaceSelection: 'selected', spaces: [s2.id] });
    await store.spaces.setPrimaryRevision(s1.id, await newRevision(s1.id, 'x'));
    await store.spaces.setPrimaryRevision(s2.id, await newRevision(s2.id, 'y'));
    const forAll = await store.integrations.pendingDeliveries(all.id, 100);
    const forSome = await store.integrations.pendingDeliveries(some.id, 100);
    expect(forAll.map((d) => d.event.spaceId)).toEqual([s1.id, s2.id]);
    expect(forSome.map((d) => d.event.spaceId)).toEqual([s2.id]);
    expect(await store.integrations.finishDelivery(forSome[0]!.id, 'success', { level: 'info', message: 'delivered' })).toBe(true);
    expect(await store.integrations.finishDelivery(forSome[0]!.id, 'failed', { level: 'error', message: 'late' })).toBe(false);
    expect(await store.integrations.pendingDeliveries(some.id, 100)).toEqual([]);
    expect((await store.integrations.deliveries('events-hook-2', { limit: 10 })).items.map((d) => d.status)).toEqual(['success']);
    await expect(
      store.integrations.publish('events-hook', {
        organizationId: 'events-other',
        title: 'x',
        description: 'x',
        target: 'all',
        visibility: 'public',
        scopes: [],
        categories: [],
      }),
    ).rejects.toThrow(/taken/);
  });
});

describe('git sync events', () => {
  it('an operation that ends is recorded once, with its commit, revision and warning count', async () => {
    const space = await store.spaces.create(ORG, { title: 'G' });
    const rev = await newRevision(space.id, 'g');
    await store.spaces.setPrimaryRevision(space.id, rev);
    const op = { direction: 'import' as const, requestId: 'req-1', startedAt: new Date().toISOString() };
    await store.gitSync.update(space.id, { operation: { ...op, state: 'running' } });
    await store.gitSync.update(space.id, { lastImport: { timestamp: '2026-01-01T00:00:00Z', commit: 'c0ffee', requestId: 'req-1', revisionId: rev } });
    const end = { ...op, state: 'success', endedAt: new Date().toISOString(), warnings: { total: 2, counts: { X: 2 }, warnings: [] } };
    await store.gitSync.update(space.id, { operation: end });
    // The activity's recording retried: nothing new happened.
    await store.gitSync.update(space.id, { operation: { ...end, endedAt: new Date(Date.now() + 5).toISOString() } });
    const { items } = await store.events.list(ORG, { limit: 100, stream: space.id });
    expect(items.map((e) => e.type)).toEqual(['space_content_updated', 'space_gitsync_completed']);
    expect(items[1]!.payload).toMatchObject({ state: 'success', direction: 'import', commitId: 'c0ffee', revisionId: rev, warnings: 2, requestId: 'req-1' });
  });
});
