/**
 * Issue 27: reviews of a change request in the official shapes (every success body checked against the spec): a
 * review cycle — open a change request, comment on a page, reply, ask for a reviewer, review with changes requested
 * (with a comment in the thread), edit, ask again (the first review is then outdated), approve; who contributed; the
 * `contributor`, `creator` and `requestedReviewer` filters of the space's list and the organization-wide list, which
 * shows only the change requests of the spaces the caller can see; `review` reviews, `edit` asks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiBed, type ApiBed, type Person } from '../helpers/api-bed.js';
import { assertContract } from '../helpers/openapi-contract.js';

let bed: ApiBed;
let space: string;
let author: Person;
let reviewer: Person;
let commenter: Person;
let reader: Person;
const org = () => bed.organizationId;

async function call(who: Person, method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const res = await bed.request(who, method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)?.slice(0, 400)}`).toBe(status);
  assertContract(method, path, status, res.body);
  return res.body;
}

beforeAll(async () => {
  bed = await startApiBed('reviews-org');
  author = await bed.person('Anna Author', 'edit');
  reviewer = await bed.person('Rob Reviewer', 'review');
  commenter = await bed.person('Cleo Commenter', 'comment');
  reader = await bed.person('Remy Reader', 'read');
  space = (await bed.store.spaces.create(org(), { title: 'Reviewed' })).id;
  const encoder = new TextEncoder();
  const { id } = await bed.store.revisions.create({
    spaceId: space,
    parents: [],
    type: 'edits',
    pages: [{ id: 'pdoc', kind: 'document', title: 'Doc', slug: 'doc', path: 'doc', body: encoder.encode('# Doc\n\nFirst.\n') }],
    files: [],
  });
  await bed.store.spaces.setPrimaryRevision(space, id);
});
afterAll(async () => {
  await bed?.close();
});

describe('a review cycle', () => {
  it('request, changes requested with a comment, edit, ask again (outdated), approve; contributors; filters', async () => {
    const crPath = `/v1/spaces/${space}/change-requests`;
    const cr = await call(author, 'POST', crPath, { subject: 'Improve the doc' }, 201);
    const p = `${crPath}/${cr.id}`;
    const comment = await call(commenter, 'POST', `${p}/comments`, { body: { markdown: 'Say more here.' }, page: 'pdoc' });
    await call(author, 'POST', `${p}/comments/${comment.id}/replies`, { body: { markdown: 'Will do.' } });

    const asked = await call(author, 'POST', `${p}/requested-reviewers`, { users: [reviewer.id] });
    expect(asked.users).toMatchObject([
      { object: 'change-request-requested-reviewer', kind: 'user', user: { id: reviewer.id }, requestedBy: { id: author.id } },
    ]);
    expect((await call(reader, 'GET', `${p}/requested-reviewers`)).items).toHaveLength(1);
    expect((await call(reader, 'GET', `${crPath}?requestedReviewer=${reviewer.id}`)).items.map((c: { id: string }) => c.id)).toEqual([cr.id]);

    const first = await call(reviewer, 'POST', `${p}/reviews`, { status: 'changes-requested', comment: { markdown: 'Needs an example.' } }, 201);
    expect(first).toMatchObject({
      object: 'change-request-review',
      status: 'changes-requested',
      outdated: false,
      reviewer: { id: reviewer.id },
      requestedBy: { id: author.id },
      revision: cr.revision,
      comment: { body: { markdown: 'Needs an example.' }, target: { review: first.id, changeRequest: cr.id } },
    });
    // The request is answered; the review's comment is in the change request's thread.
    expect((await call(reader, 'GET', `${p}/requested-reviewers`)).items).toEqual([]);
    expect((await call(reader, 'GET', `${p}/comments`)).count).toBe(2);

    const edited = await call(author, 'POST', `${p}/content`, {
      changes: [{ operation: 'update_page', page: 'pdoc', document: { markdown: '# Doc\n\nFirst, with an example.\n' } }],
    });
    expect(edited.revision).not.toBe(cr.revision);
    await call(author, 'POST', `${p}/requested-reviewers`, { users: [reviewer.id] });
    expect((await call(reader, 'GET', `${p}/reviews/${first.id}`)).outdated).toBe(true);
    const second = await call(reviewer, 'POST', `${p}/reviews`, { status: 'approved' }, 201);
    expect(second).toMatchObject({ status: 'approved', outdated: false, revision: edited.revision, requestedBy: { id: author.id } });
    expect(second.comment).toBeUndefined();
    const reviews = await call(reader, 'GET', `${p}/reviews`);
    expect(reviews.items.map((r: { id: string; outdated: boolean }) => [r.id, r.outdated])).toEqual([
      [second.id, false],
      [first.id, true],
    ]);
    expect((await call(reader, 'GET', `${p}/reviews?outdated=false`)).items.map((r: { id: string }) => r.id)).toEqual([second.id]);

    const contributors = await call(reader, 'GET', `${p}/contributors`);
    const summary = contributors.items
      .map((c: { user: { id: string }; actionType: string; count: number }) => `${c.user.id}:${c.actionType}:${c.count}`)
      .sort();
    expect(summary).toEqual([`${author.id}:comment:1`, `${author.id}:edit:2`, `${commenter.id}:comment:1`, `${reviewer.id}:comment:1`].sort());
    for (const [who, expected] of [
      [commenter.id, [cr.id]],
      [reader.id, []],
    ] as const) {
      expect((await call(reader, 'GET', `${crPath}?contributor=${who}`)).items.map((c: { id: string }) => c.id)).toEqual(expected);
      expect((await call(reader, 'GET', `/v1/orgs/${org()}/change-requests?contributor=${who}`)).items.map((c: { id: string }) => c.id)).toEqual(expected);
    }
    expect((await call(reader, 'GET', `${crPath}?creator=${author.id}`)).items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    expect((await call(reader, 'GET', `${p}`)).comments).toBe(2);
    await call(author, 'DELETE', `${p}/requested-reviewers/${reviewer.id}`, undefined, 204);
  });
});

describe('reviews: roles, states, the organization-wide list', () => {
  it('reviewing needs review, asking needs edit; members only; a merged or archived change request is not reviewed', async () => {
    const cr = await call(author, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Roles' }, 201);
    const p = `/v1/spaces/${space}/change-requests/${cr.id}`;
    expect((await call(author, 'POST', `${p}/reviews`, { status: 'approved' }, 403)).error.message).toMatch(/review role/);
    await call(commenter, 'POST', `${p}/requested-reviewers`, { users: [reviewer.id] }, 403);
    expect((await call(author, 'POST', `${p}/requested-reviewers`, { users: ['nobody-here'] }, 400)).error.message).toMatch(/not a member/);
    await call(reviewer, 'POST', `${p}/reviews`, { status: 'maybe' }, 400);
    await call(author, 'PATCH', p, { status: 'archived' });
    expect((await call(reviewer, 'POST', `${p}/reviews`, { status: 'approved' }, 400)).error.message).toMatch(/archived/);
    await call(reader, 'GET', `${p}/reviews/no-such-review`, undefined, 404);
  });

  it('lists across spaces with filters, only the spaces the caller can see', async () => {
    const hidden = (await bed.store.spaces.create(org(), { title: 'Hidden' })).id;
    await bed.store.spaces.update(hidden, { defaultLevel: null });
    const { id } = await bed.store.revisions.create({ spaceId: hidden, parents: [], type: 'edits', pages: [], files: [] });
    await bed.store.spaces.setPrimaryRevision(hidden, id);
    const secret = await call(bed.service, 'POST', `/v1/spaces/${hidden}/change-requests`, { subject: 'Secret' }, 201);
    const draft = await call(author, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Draft one' }, 201);
    await call(author, 'PATCH', `/v1/spaces/${space}/change-requests/${draft.id}`, { status: 'draft' });
    const ids = (body: { items: Array<{ id: string }> }) => body.items.map((c) => c.id);
    const everything = await call(bed.service, 'GET', `/v1/orgs/${org()}/change-requests?status=open&status=draft&status=archived`);
    expect(ids(everything)).toContain(secret.id);
    expect(ids(everything)).toContain(draft.id);
    const readers = await call(reader, 'GET', `/v1/orgs/${org()}/change-requests?status=open&status=draft&status=archived`);
    expect(ids(readers)).not.toContain(secret.id);
    expect(readers.count).toBe(everything.count - 1);
    expect(ids(await call(reader, 'GET', `/v1/orgs/${org()}/change-requests?status=draft`))).toEqual([draft.id]);
    expect(ids(await call(reader, 'GET', `/v1/orgs/${org()}/change-requests?space=${hidden}`))).toEqual([]);
    expect(ids(await call(bed.service, 'GET', `/v1/orgs/${org()}/change-requests?space=${hidden}`))).toEqual([secret.id]);
    // Default: open ones only.
    expect((await call(bed.service, 'GET', `/v1/orgs/${org()}/change-requests`)).items.every((c: { status: string }) => c.status === 'open')).toBe(true);
  });
});
