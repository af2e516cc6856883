/**
 * Issue 27: comments and replies on a space and on a change request, in the official shapes (every success body is
 * checked strictly against the spec): anchored to a page (and a node), edited, resolved and reopened (`resolvedAt`,
 * `resolvedBy`), reacted to, deleted; the list's `status`, `order`, `targetPage` and `authors` filters and its
 * pagination; who may do what (`comment` posts; someone else's post is its author's or an admin's); a thread whose
 * page a later revision deletes or moves keeps its anchor and says so; 20 comments posted at once are all kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageInput } from '../../src/store/index.js';
import { startApiBed, type ApiBed, type Person } from '../helpers/api-bed.js';
import { assertContract } from '../helpers/openapi-contract.js';

let bed: ApiBed;
let space: string;
let cr: string;
let admin: Person;
let commenter: Person;
let other: Person;
let reader: Person;
const encoder = new TextEncoder();

const page = (id: string, title: string, path: string): PageInput => ({
  id,
  kind: 'document',
  title,
  slug: path,
  path,
  body: encoder.encode(`# ${title}\n\nText of ${title}.\n`),
});

async function call(who: Person, method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const res = await bed.request(who, method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)?.slice(0, 400)}`).toBe(status);
  assertContract(method, path, status, res.body);
  return res.body;
}

/** A new primary revision of the space with these pages. */
async function publish(pages: PageInput[]): Promise<string> {
  const current = (await bed.store.spaces.get(space))!.revisionId;
  const { id } = await bed.store.revisions.create({ spaceId: space, parents: current ? [current] : [], type: 'edits', pages, files: [] });
  await bed.store.spaces.setPrimaryRevision(space, id);
  return id;
}

beforeAll(async () => {
  bed = await startApiBed('comments-org');
  admin = await bed.person('Ada Admin', 'admin');
  commenter = await bed.person('Cole Commenter', 'comment');
  other = await bed.person('Olga Other', 'comment');
  reader = await bed.person('Rita Reader', 'read');
  space = (await bed.store.spaces.create(bed.organizationId, { title: 'Discussed' })).id;
  const revision = await publish([page('pintro', 'Intro', 'intro'), page('pguide', 'Guide', 'guide'), page('pfaq', 'FAQ', 'faq')]);
  cr = (await bed.store.changeRequests.create({ spaceId: space, subject: 'Draft', createdBy: admin.id, revisionId: revision })).id;
});
afterAll(async () => {
  await bed?.close();
});

for (const [name, prefix] of [
  ['a space', () => `/v1/spaces/${space}/comments`],
  ['a change request', () => `/v1/spaces/${space}/change-requests/${cr}/comments`],
] as const) {
  describe(`comments on ${name}`, () => {
    it('post on a page and a node, read, edit, react, resolve and reopen, reply, delete', async () => {
      const p = prefix();
      const posted = await call(commenter, 'POST', p, { body: { markdown: 'Is this **right**?' }, page: 'pguide', node: 'n1' });
      expect(posted).toMatchObject({
        object: 'comment',
        status: 'open',
        body: { markdown: 'Is this **right**?' },
        postedBy: { id: commenter.id, displayName: 'Cole Commenter' },
        replies: 0,
        target: { space, page: { id: 'pguide', title: 'Guide', path: 'guide', outdated: false }, node: { id: 'n1' } },
        permissions: { view: true, edit: true, reply: true, delete: true },
      });
      if (name === 'a change request') expect(posted.target.changeRequest).toBe(cr);
      const id = posted.id as string;
      expect((await call(other, 'GET', `${p}/${id}`)).permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
      const edited = await call(commenter, 'PUT', `${p}/${id}`, { body: { markdown: 'Is this right?' }, addedReactions: ['👍'] });
      expect(edited).toMatchObject({ body: { markdown: 'Is this right?' }, editedAt: expect.any(String), reactions: [{ emoji: '👍', count: 1 }] });
      // Anyone who may comment resolves a thread; it says who and when.
      const resolved = await call(other, 'PUT', `${p}/${id}`, { resolved: true, addedReactions: ['👍'] });
      expect(resolved).toMatchObject({
        status: 'resolved',
        resolvedAt: expect.any(String),
        resolvedBy: { id: other.id },
        reactions: [{ emoji: '👍', count: 2 }],
      });
      const reopened = await call(commenter, 'PUT', `${p}/${id}`, { resolved: false, removedReactions: ['👍'] });
      expect(reopened.status).toBe('open');
      expect(reopened.resolvedAt).toBeUndefined();
      expect(reopened.reactions).toMatchObject([{ emoji: '👍', count: 1, users: [{ user: { id: other.id } }] }]);

      const answer = await call(other, 'POST', `${p}/${id}/replies`, { body: { markdown: 'Yes.' } });
      expect(answer).toMatchObject({ object: 'comment-reply', body: { markdown: 'Yes.' }, postedBy: { id: other.id } });
      await call(commenter, 'POST', `${p}/${id}/replies`, { body: { markdown: 'Thanks.' } });
      const replies = await call(reader, 'GET', `${p}/${id}/replies`);
      expect(replies.items.map((r: { body: { markdown: string } }) => r.body.markdown)).toEqual(['Yes.', 'Thanks.']);
      expect(await call(reader, 'GET', `${p}/${id}/replies/${answer.id}`)).toMatchObject({ id: answer.id });
      expect(await call(other, 'PUT', `${p}/${id}/replies/${answer.id}`, { body: { markdown: 'Yes!' } })).toMatchObject({
        body: { markdown: 'Yes!' },
        editedAt: expect.any(String),
      });
      const thread = await call(reader, 'GET', `${p}/${id}`);
      expect(thread).toMatchObject({
        replies: 2,
        repliers: [
          { user: { id: other.id }, count: 1 },
          { user: { id: commenter.id }, count: 1 },
        ],
      });
      await call(other, 'DELETE', `${p}/${id}/replies/${answer.id}`, undefined, 205);
      await call(other, 'DELETE', `${p}/${id}/replies/${answer.id}`, undefined, 204);
      expect((await call(reader, 'GET', `${p}/${id}`)).replies).toBe(1);
      await call(commenter, 'DELETE', `${p}/${id}`, undefined, 205);
      await call(reader, 'GET', `${p}/${id}`, undefined, 404);
      await call(reader, 'GET', `${p}/${id}/replies`, undefined, 404);
      await call(commenter, 'DELETE', `${p}/${id}`, undefined, 204);
    });

    it('the list: status all/open/resolved, order, targetPage, authors, pagination with count', async () => {
      const p = prefix();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await call(i % 2 ? other : commenter, 'POST', p, { body: { markdown: `Note ${i}` }, ...(i < 2 ? { page: 'pfaq' } : {}) })).id);
      await call(admin, 'PUT', `${p}/${ids[1]}`, { resolved: true });
      await call(admin, 'PUT', `${p}/${ids[3]}`, { resolved: true });
      // The space (or the change request) counts its open comments.
      const counted =
        name === 'a space' ? await call(reader, 'GET', `/v1/spaces/${space}`) : await call(reader, 'GET', `/v1/spaces/${space}/change-requests/${cr}`);
      expect(counted.comments).toBe(3);
      const list = async (q: string) => (await call(reader, 'GET', `${p}?${q}`)) as { count: number; items: Array<{ id: string }>; next?: { page: string } };
      expect((await list('')).items.map((c) => c.id)).toEqual([...ids].reverse());
      expect((await list('order=asc')).items.map((c) => c.id)).toEqual(ids);
      expect((await list('status=resolved')).items.map((c) => c.id)).toEqual([ids[3], ids[1]]);
      expect((await list('status=open&order=asc')).items.map((c) => c.id)).toEqual([ids[0], ids[2], ids[4]]);
      expect((await list('status=all')).count).toBe(5);
      expect((await list('targetPage=pfaq&order=asc')).items.map((c) => c.id)).toEqual([ids[0], ids[1]]);
      expect((await list(`authors=${other.id}&order=asc`)).items.map((c) => c.id)).toEqual([ids[1], ids[3]]);
      expect((await list(`authors=${other.id}&authors=${commenter.id}`)).count).toBe(5);
      const seen: string[] = [];
      let q = 'limit=2&order=asc';
      for (let n = 0; n < 5; n++) {
        const pageOf = await list(q);
        expect(pageOf.count).toBe(5);
        seen.push(...pageOf.items.map((c) => c.id));
        if (!pageOf.next) break;
        q = `limit=2&order=asc&page=${encodeURIComponent(pageOf.next.page)}`;
      }
      expect(seen).toEqual(ids);
      await call(reader, 'GET', `${p}?status=closed`, undefined, 400);
      for (const id of ids) await call(admin, 'DELETE', `${p}/${id}`, undefined, 205);
    });

    it('who may do what: read only reads, comment posts and resolves, someone else’s post is its author’s or an admin’s', async () => {
      const p = prefix();
      const refused = await call(reader, 'POST', p, { body: { markdown: 'Me too' } }, 403);
      expect(refused.error.message).toMatch(/INSUFFICIENT_ROLE/);
      const theirs = (await call(commenter, 'POST', p, { body: { markdown: 'Mine' } })).id;
      const reply = (await call(commenter, 'POST', `${p}/${theirs}/replies`, { body: { markdown: 'Also mine' } })).id;
      expect((await call(other, 'PUT', `${p}/${theirs}`, { body: { markdown: 'Hijacked' } }, 403)).error.message).toMatch(/admin role .* or being its author/);
      await call(other, 'DELETE', `${p}/${theirs}`, undefined, 403);
      await call(other, 'PUT', `${p}/${theirs}/replies/${reply}`, { body: { markdown: 'Hijacked' } }, 403);
      await call(other, 'DELETE', `${p}/${theirs}/replies/${reply}`, undefined, 403);
      await call(reader, 'PUT', `${p}/${theirs}`, { resolved: true }, 403);
      expect((await call(commenter, 'GET', `${p}/${theirs}`)).body.markdown).toBe('Mine');
      // An admin of the space edits and deletes anyone's.
      expect((await call(admin, 'GET', `${p}/${theirs}`)).permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
      await call(admin, 'PUT', `${p}/${theirs}`, { body: { markdown: 'Moderated' } });
      await call(admin, 'DELETE', `${p}/${theirs}/replies/${reply}`, undefined, 205);
      await call(admin, 'DELETE', `${p}/${theirs}`, undefined, 205);
    });

    it('bad bodies are 400 naming what is wrong; nothing is kept', async () => {
      const p = prefix();
      const before = (await call(reader, 'GET', p)).count;
      const bad = async (body: unknown, pattern: RegExp) => expect((await call(commenter, 'POST', p, body, 400)).error.message).toMatch(pattern);
      await bad({ body: { markdown: '   ' } }, /empty/);
      await bad({ body: {} }, /body\.body/);
      await bad({ body: { markdown: 'x', document: {} } }, /body\.body/);
      await bad({ body: { markdown: 'x' }, colour: 'red' }, /unknown member "colour"/);
      await bad({ body: { markdown: 'x' }, page: 'pnowhere' }, /page: no page pnowhere/);
      await bad({ body: { markdown: 'x' }, node: 'n1' }, /node: a node is named with its page/);
      await bad({ body: { markdown: 'x'.repeat(20_001) } }, /20000/);
      expect((await call(reader, 'GET', p)).count).toBe(before);
    });
  });
}

describe('comments: bodies, scopes and later revisions', () => {
  it('a body given as a document is kept as markdown; ?format=document answers a document', async () => {
    const p = `/v1/spaces/${space}/comments`;
    const document = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'From a document', marks: [] }] }] }],
    };
    const posted = await call(commenter, 'POST', p, { body: { document } });
    expect(posted.body.markdown.trim()).toBe('From a document');
    const asDocument = await call(reader, 'GET', `${p}/${posted.id}?format=document`);
    expect(asDocument.body.document).toMatchObject({ object: 'document', nodes: [{ type: 'paragraph' }] });
    await call(admin, 'DELETE', `${p}/${posted.id}`, undefined, 205);
  });

  it('a change request’s comments are not the space’s, and the reverse', async () => {
    const onSpace = (await call(commenter, 'POST', `/v1/spaces/${space}/comments`, { body: { markdown: 'Space' } })).id;
    const onCr = (await call(commenter, 'POST', `/v1/spaces/${space}/change-requests/${cr}/comments`, { body: { markdown: 'CR' } })).id;
    await call(reader, 'GET', `/v1/spaces/${space}/comments/${onCr}`, undefined, 404);
    await call(reader, 'GET', `/v1/spaces/${space}/change-requests/${cr}/comments/${onSpace}`, undefined, 404);
    await call(admin, 'DELETE', `/v1/spaces/${space}/comments/${onCr}`, undefined, 204);
    expect((await call(reader, 'GET', `/v1/spaces/${space}/change-requests/${cr}/comments`)).items.map((c: { id: string }) => c.id)).toEqual([onCr]);
    await call(reader, 'GET', `/v1/spaces/${space}/change-requests/no-such-cr/comments`, undefined, 404);
    await call(admin, 'DELETE', `/v1/spaces/${space}/comments/${onSpace}`, undefined, 205);
    await call(admin, 'DELETE', `/v1/spaces/${space}/change-requests/${cr}/comments/${onCr}`, undefined, 205);
  });

  it('a thread whose page a later revision deletes (or moves) keeps its replies and says so', async () => {
    const p = `/v1/spaces/${space}/comments`;
    const onGuide = (await call(commenter, 'POST', p, { body: { markdown: 'About the guide' }, page: 'pguide' })).id;
    const onIntro = (await call(commenter, 'POST', p, { body: { markdown: 'About the intro' }, page: 'pintro' })).id;
    await call(other, 'POST', `${p}/${onGuide}/replies`, { body: { markdown: 'Agreed' } });
    await publish([page('pintro', 'Intro', 'start/intro'), page('pfaq', 'FAQ', 'faq')]);
    const gone = await call(reader, 'GET', `${p}/${onGuide}`);
    expect(gone.target.page).toEqual({ id: 'pguide', title: 'Guide', path: 'guide', outdated: true, deleted: true });
    expect(gone.replies).toBe(1);
    expect((await call(reader, 'GET', `${p}/${onGuide}/replies`)).items).toMatchObject([{ body: { markdown: 'Agreed' } }]);
    expect((await call(reader, 'GET', `${p}/${onIntro}`)).target.page).toEqual({
      id: 'pintro',
      title: 'Intro',
      path: 'start/intro',
      outdated: true,
      moved: true,
    });
    expect((await call(reader, 'GET', `${p}?targetPage=pguide`)).items.map((c: { id: string }) => c.id)).toEqual([onGuide]);
    // A new comment cannot go on the deleted page.
    await call(commenter, 'POST', p, { body: { markdown: 'Late' }, page: 'pguide' }, 400);
  });
});

describe('comments: concurrency', () => {
  it('20 comments posted at once on one space are all kept (counted)', async () => {
    const fresh = (await bed.store.spaces.create(bed.organizationId, { title: 'Busy' })).id;
    const { id: revision } = await bed.store.revisions.create({
      spaceId: fresh,
      parents: [],
      type: 'edits',
      pages: [page('pbusy', 'Busy', 'busy')],
      files: [],
    });
    await bed.store.spaces.setPrimaryRevision(fresh, revision);
    const p = `/v1/spaces/${fresh}/comments`;
    const people = [commenter, other, admin];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        bed.request(people[i % 3]!, 'POST', p, { body: { markdown: `Concurrent ${i}` }, ...(i % 2 ? { page: 'pbusy' } : {}) }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(results.map((r) => r.body.id as string));
    expect(ids.size).toBe(20);
    const listed = await call(reader, 'GET', `${p}?limit=1000`);
    expect(listed.count).toBe(20);
    expect(new Set(listed.items.map((c: { id: string }) => c.id))).toEqual(ids);
    expect(new Set(listed.items.map((c: { body: { markdown: string } }) => c.body.markdown))).toEqual(
      new Set(Array.from({ length: 20 }, (_, i) => `Concurrent ${i}`)),
    );
    // And 20 replies at once on one of them.
    const first = [...ids][0]!;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => bed.request(people[i % 3]!, 'POST', `${p}/${first}/replies`, { body: { markdown: `Reply ${i}` } })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect((await call(reader, 'GET', `${p}/${first}`)).replies).toBe(20);
    expect((await call(reader, 'GET', `${p}/${first}/replies?limit=1000`)).count).toBe(20);
  });
});
