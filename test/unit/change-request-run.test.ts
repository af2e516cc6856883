/**
 * The update and merge steps of src/change-requests/run.ts on an in-memory store: a merge whose primary content moves
 * between its read and its compare-and-set answers `moved` and writes nothing (the workflow builds it again), and the
 * next attempt merges both; a retry of a merge that was published only marks it merged; an update moves the change
 * request's base. Page bodies merge with the block merge, run inline here (the activity runs it in the parse pool).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergePageText } from '../../src/change-requests/block-merge.js';
import type { MergeBody } from '../../src/change-requests/merge.js';
import { mergeChangeRequest, updateChangeRequest } from '../../src/change-requests/run.js';
import { locate, toEditable, toFileInputs, toPageInputs } from '../../src/change-requests/tree.js';
import type { Store } from '../../src/store/index.js';
import { createTestStore } from '../helpers/store.js';

let store: Store;
let spaceId: string;
const page = (...p: string[]) => `# Doc\n\n${p.join('\n\n')}\n`;
const inline: MergeBody = async (b, o, t) => mergePageText(b, o, t);

async function withBody(revisionId: string, text: string): Promise<string> {
  const pages = toEditable(await store.revisions.pages(revisionId));
  locate(pages, 'pdoc')!.page.bodyHash = await store.blobs.put(new TextEncoder().encode(text));
  const files = toFileInputs(await store.revisions.files(revisionId));
  return (await store.revisions.create({ spaceId, parents: [revisionId], type: 'edits', pages: toPageInputs(pages), files })).id;
}
const primary = async () => (await store.spaces.get(spaceId))!.revisionId!;
const body = async (revisionId: string) => new TextDecoder().decode((await store.revisions.pageBody(revisionId, 'pdoc'))!);
async function crWith(text: string) {
  const base = await primary();
  const cr = await store.changeRequests.create({ spaceId, subject: 'edit', revisionId: base });
  await store.changeRequests.setRevision(cr.id, await withBody(base, text), base);
  return cr.id;
}
async function movePrimary(text: string) {
  const now = await primary();
  await store.spaces.setPrimaryRevision(spaceId, await withBody(now, text), { expected: now });
}

beforeAll(async () => {
  store = await createTestStore();
  await store.orgs.create({ id: 'org', title: 'Org' });
  spaceId = (await store.spaces.create('org', { title: 'Runs' })).id;
  const { id } = await store.revisions.create({
    spaceId,
    parents: [],
    type: 'edits',
    pages: [{ id: 'pdoc', kind: 'document', title: 'Doc', slug: 'doc', path: 'doc', body: new TextEncoder().encode(page('a', 'b', 'c')) }],
    files: [],
  });
  await store.spaces.setPrimaryRevision(spaceId, id);
});
afterAll(async () => {
  await store?.close();
});

describe('change-request update and merge steps', () => {
  it('a merge overtaken by another change answers moved and writes nothing; the next attempt merges both', async () => {
    const cr = await crWith(page('a', 'b', 'c!'));
    await movePrimary(page('a!', 'b', 'c'));
    let overtaken = false;
    // Another change is published while this merge is being built (between its read and its compare-and-set).
    const racing: MergeBody = async (b, o, t) => {
      if (!overtaken) {
        overtaken = true;
        await movePrimary(page('a!', 'b!', 'c'));
      }
      return inline(b, o, t);
    };
    const before = await store.changeRequests.get(spaceId, cr);
    expect(await mergeChangeRequest(store, { spaceId, changeRequestId: cr, mergedBy: null }, { mergeBody: racing })).toEqual({ outcome: 'moved' });
    expect(await body(await primary())).toBe(page('a!', 'b!', 'c'));
    expect(await store.changeRequests.get(spaceId, cr)).toEqual(before);
    const done = await mergeChangeRequest(store, { spaceId, changeRequestId: cr, mergedBy: null }, { mergeBody: racing });
    expect(done).toMatchObject({ outcome: 'done', alreadyDone: false });
    expect(await body(await primary())).toBe(page('a!', 'b!', 'c!'));
    // Run again (a retried activity): the change request is merged already; nothing new is made.
    const again = await mergeChangeRequest(store, { spaceId, changeRequestId: cr, mergedBy: null }, { mergeBody: inline });
    expect(again).toEqual({ outcome: 'done', revisionId: (done as { revisionId: string }).revisionId, alreadyDone: true });
  });

  it('a retry after the publication only marks the change request merged', async () => {
    const cr = await crWith(page('a!', 'b!', 'c!', 'd'));
    const record = (await store.changeRequests.get(spaceId, cr))!;
    // The first attempt published the change request's content, then failed before marking it.
    const { id } = await store.revisions.create({
      spaceId,
      parents: [await primary(), record.revisionId],
      type: 'merge',
      data: { changeRequestId: cr },
      pages: toPageInputs(toEditable(await store.revisions.pages(record.revisionId))),
      files: [],
    });
    await store.spaces.setPrimaryRevision(spaceId, id);
    expect(await mergeChangeRequest(store, { spaceId, changeRequestId: cr, mergedBy: null }, { mergeBody: inline })).toEqual({
      outcome: 'done',
      revisionId: id,
      alreadyDone: false,
    });
    expect(await primary()).toBe(id);
    expect((await store.changeRequests.get(spaceId, cr))!).toMatchObject({ status: 'merged', mergedRevisionId: id });
  });

  it('an update brings the primary content in block by block and moves the base', async () => {
    const cr = await crWith(page('a!', 'b!', 'c!', 'd', 'e'));
    await movePrimary(page('A', 'b!', 'c!', 'd'));
    const result = await updateChangeRequest(store, { spaceId, changeRequestId: cr }, { mergeBody: inline });
    expect(result).toMatchObject({ outcome: 'done', alreadyDone: false });
    const after = (await store.changeRequests.get(spaceId, cr))!;
    expect(after.revisionInitial).toBe(await primary());
    expect(await body(after.revisionId)).toBe(page('A', 'b!', 'c!', 'd', 'e'));
    expect(await updateChangeRequest(store, { spaceId, changeRequestId: cr }, { mergeBody: inline })).toMatchObject({ alreadyDone: true });
  });
});
