/**
 * Issue 27, driven by GitBook's own client (`GitBookAPI` from @gitbook/api) against a whole Folio (API, worker,
 * Temporal): a full review cycle — open a change request, comment on a page, reply, request a reviewer, review with
 * changes requested, edit, approve, update from the primary content after someone else's merge, merge — with every
 * success body the client receives checked strictly against the official spec. Then concurrency on one space:
 * 20 comments and 5 merges at once lose nothing (counted). Merges and updates run as workflows (block by block).
 */
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract } from '../helpers/openapi-contract.js';

let folio: TestFolio;
/** Successful responses the client received and the spec checked. */
let checked = 0;

/** A client whose every 2xx answer is checked against the official spec before the client reads it. */
function client(token: string): GitBookAPI {
  const checking: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const req = new Request(input, init);
    if (res.ok && res.status !== 204 && res.status !== 205) {
      const url = new URL(req.url);
      assertContract(req.method, url.pathname + url.search, res.status, await res.clone().json());
      checked++;
    }
    return res;
  };
  return new GitBookAPI({ authToken: token, endpoint: folio.baseUrl, serviceBinding: { fetch: checking } });
}

async function person(name: string, role: 'edit' | 'review' | 'comment'): Promise<{ id: string; api: GitBookAPI }> {
  const user = await folio.store.users.create({ displayName: name, email: `${name.toLowerCase().replace(/\W+/g, '.')}@cycle.test` });
  await folio.store.members.add(folio.organizationId, user.id, { role }, { via: 'cli' });
  return { id: user.id, api: client((await folio.store.tokens.create(folio.organizationId, { userId: user.id, label: name })).token) };
}

const page = (...paragraphs: string[]) => `# Guide\n\n${paragraphs.join('\n\n')}\n`;
const change = (pageId: string, markdown: string) => ({ changes: [{ operation: 'update_page', page: pageId, document: { markdown } }] }) as never;

/** A space whose primary content has one page "Guide" of three paragraphs (and `extra` more pages). */
async function seededSpace(admin: GitBookAPI, title: string, extra = 0): Promise<{ spaceId: string; pageIds: string[] }> {
  const { data: space } = await admin.orgs.createSpace(folio.organizationId, { title });
  const { data: seed } = await admin.spaces.createChangeRequest(space.id, { subject: 'seed' });
  const inserts = [page('one', 'two', 'three'), ...Array.from({ length: extra }, (_, i) => `# Page ${i}\n\nText ${i}.\n`)];
  const { data: content } = await admin.spaces.updateChangeRequestContent(
    space.id,
    seed.id,
    { changes: inserts.map((markdown, i) => ({ operation: 'insert_page', ref: `p${i}`, document: { markdown } })) } as never,
    { compat: false } as never,
  );
  await admin.spaces.mergeChangeRequest(space.id, seed.id);
  const refs = (content as unknown as { changes: Array<{ ref: string; page: { id: string } }> }).changes;
  return { spaceId: space.id, pageIds: inserts.map((_, i) => refs.find((c) => c.ref === `p${i}`)!.page.id) };
}

beforeAll(async () => {
  folio = await sharedFolio();
});
afterAll(async () => {
  await folio?.stop();
});

describe('collaboration through the official client', () => {
  it('a review cycle: open, comment, reply, request, changes requested, edit, approve, update after another merge, merge', async () => {
    const admin = client(folio.token);
    const author = await person('Ada Author', 'edit');
    const colleague = await person('Cy Colleague', 'edit');
    const reviewer = await person('Ria Reviewer', 'review');
    const { spaceId, pageIds } = await seededSpace(admin, 'Cycle');
    const guide = pageIds[0]!;
    const before = checked;

    const { data: cr } = await author.api.spaces.createChangeRequest(spaceId, { subject: 'Better guide' });
    expect(cr).toMatchObject({ status: 'open', outdated: false });
    const { data: comment } = await reviewer.api.spaces.postCommentInChangeRequest(spaceId, cr.id, {
      body: { markdown: 'The last paragraph is thin.' },
      page: guide,
    } as never);
    expect(comment.target).toMatchObject({ page: { id: guide } });
    const { data: reply } = await author.api.spaces.postCommentReplyInChangeRequest(spaceId, cr.id, comment.id, { body: { markdown: 'On it.' } } as never);
    expect(reply.postedBy.id).toBe(author.id);
    const { data: asked } = await author.api.spaces.requestReviewersForChangeRequest(spaceId, cr.id, { users: [reviewer.id] });
    expect(asked.users).toMatchObject([{ user: { id: reviewer.id } }]);
    const { data: changes } = await reviewer.api.spaces.submitChangeRequestReview(spaceId, cr.id, {
      status: 'changes-requested',
      comment: { markdown: 'Please expand the third paragraph.' },
    } as never);
    expect(changes.status).toBe('changes-requested');
    await author.api.spaces.updateChangeRequestContent(spaceId, cr.id, change(guide, page('one', 'two', 'three, expanded')));
    const { data: approved } = await reviewer.api.spaces.submitChangeRequestReview(spaceId, cr.id, { status: 'approved' });
    expect(approved.status).toBe('approved');

    // Someone else's change request is merged first: the author's is then behind.
    const { data: other } = await colleague.api.spaces.createChangeRequest(spaceId, { subject: 'Sharper opening' });
    await colleague.api.spaces.updateChangeRequestContent(spaceId, other.id, change(guide, page('one, sharper', 'two', 'three')));
    await reviewer.api.spaces.mergeChangeRequest(spaceId, other.id);
    expect((await author.api.spaces.getChangeRequestById(spaceId, cr.id)).data.outdated).toBe(true);
    const { data: updated } = await author.api.spaces.updateChangeRequest(spaceId, cr.id);
    expect(updated.result).toBe('update');
    const { data: current } = await author.api.spaces.getChangeRequestById(spaceId, cr.id);
    expect(current.outdated).toBe(false);
    const inCr = await author.api.spaces.getPageInChangeRequestById(spaceId, cr.id, guide, { format: 'markdown' });
    expect((inCr.data as unknown as { markdown: string }).markdown).toBe(page('one, sharper', 'two', 'three, expanded'));

    const { data: merged } = await reviewer.api.spaces.mergeChangeRequest(spaceId, cr.id);
    expect(merged.result).toBe('merge');
    const { data: final } = await author.api.spaces.getChangeRequestById(spaceId, cr.id);
    expect(final).toMatchObject({ status: 'merged', revision: expect.any(String) });
    const primary = await admin.spaces.getPageById(spaceId, guide, { format: 'markdown' });
    expect((primary.data as unknown as { markdown: string }).markdown).toBe(page('one, sharper', 'two', 'three, expanded'));
    const { data: reviews } = await author.api.spaces.getReviewsByChangeRequestId(spaceId, cr.id);
    expect(reviews.items.map((r) => r.status).sort()).toEqual(['approved', 'changes-requested']);
    const { data: contributors } = await author.api.spaces.getContributorsByChangeRequestId(spaceId, cr.id);
    expect([...new Set(contributors.items.map((c) => (c as unknown as { user: { id: string } }).user.id))].sort()).toEqual([author.id, reviewer.id].sort());
    // Every success answer of the cycle was checked against the spec.
    expect(checked - before).toBeGreaterThanOrEqual(17);
  });

  it('20 comments and 5 merges at once on one space lose nothing', async () => {
    const admin = client(folio.token);
    const reviewer = await person('Max Merger', 'review');
    const commenter = await person('Coco Commenter', 'comment');
    const { spaceId, pageIds } = await seededSpace(admin, 'Busy', 5);
    const edited = pageIds.slice(1);
    const crs = await Promise.all(edited.map(async (_, i) => (await admin.spaces.createChangeRequest(spaceId, { subject: `edit ${i}` })).data.id));
    await Promise.all(crs.map((id, i) => admin.spaces.updateChangeRequestContent(spaceId, id, change(edited[i]!, `# Page ${i}\n\nText ${i}, edited.\n`))));

    const comments = Array.from({ length: 20 }, (_, i) =>
      commenter.api.spaces.postCommentInSpace(spaceId, { body: { markdown: `Comment ${i}` }, page: pageIds[0] } as never),
    );
    const merges = crs.map((id) => reviewer.api.spaces.mergeChangeRequest(spaceId, id));
    const settled = await Promise.allSettled([...comments, ...merges]);
    expect(settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);

    const { data: listed } = await admin.spaces.listCommentsInSpace(spaceId, { limit: 100 } as never);
    const bodies = listed.items.map((c) => (c.body as unknown as { markdown: string }).markdown.trim()).sort();
    expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => `Comment ${i}`).sort());
    for (const [i, id] of crs.entries()) expect((await admin.spaces.getChangeRequestById(spaceId, id)).data.status, `merge ${i}`).toBe('merged');
    for (const [i, pageId] of edited.entries()) {
      const { data } = await admin.spaces.getPageById(spaceId, pageId, { format: 'markdown' });
      expect((data as unknown as { markdown: string }).markdown).toBe(`# Page ${i}\n\nText ${i}, edited.\n`);
    }
    // Each merge made one revision of type merge, one after the other (none overwrote another).
    const merged = await Promise.all(crs.map(async (id) => (await folio.store.changeRequests.get(spaceId, id))!.mergedRevisionId!));
    expect(new Set(merged).size).toBe(5);
  });
});
