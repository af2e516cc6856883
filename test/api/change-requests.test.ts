import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract } from '../helpers/openapi-contract.js';

/** Change requests: edits in batches, content reads, merges (three-way when behind), update, lock. */
describe('change requests', () => {
  let folio: TestFolio;

  beforeAll(async () => {
    folio = await startFolio();
  });
  afterAll(async () => {
    await folio?.stop();
  });

  async function call(method: string, path: string, body?: unknown, status = 200) {
    const res = await folio.request(method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status < 300) assertContract(method, path, status, res.body);
    return res.body;
  }
  async function newSpace(): Promise<string> {
    return (await call('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'CR space' }, 201)).id;
  }
  async function newCr(spaceId: string, subject = 'edit'): Promise<string> {
    return (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject }, 201)).id;
  }
  const markdown = async (spaceId: string, pageId: string, cr?: string) =>
    (await call('GET', `/v1/spaces/${spaceId}${cr ? `/change-requests/${cr}` : ''}/content/page/${pageId}?format=markdown`)).markdown as string;

  /** A space whose primary content has two pages, `a` and `b` (ids returned). */
  async function seeded(): Promise<{ spaceId: string; a: string; b: string }> {
    const spaceId = await newSpace();
    const cr = await newCr(spaceId, 'seed');
    const res = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', ref: 'a', document: { markdown: '# Alpha\n\nfirst\n' } },
        { operation: 'insert_page', ref: 'b', document: { markdown: '---\ndescription: Bee\n---\n\n# Beta\n\nsecond\n' } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = Object.fromEntries(res.body.pages.map((p: { ref: string; page: { id: string } }) => [p.ref, p.page.id]));
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
    return { spaceId, a: ids.a, b: ids.b };
  }

  it('creates, lists by status, patches, and reads its content apart from the primary', async () => {
    const spaceId = await newSpace();
    const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'First' }, 201);
    expect(cr).toMatchObject({ object: 'change-request', number: 1, status: 'open', subject: 'First', outdated: false });
    const second = await newCr(spaceId, 'Second');
    await call('PATCH', `/v1/spaces/${spaceId}/change-requests/${second}`, { status: 'draft', subject: 'Second!' });
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests`)).items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests?status=draft`)).items[0]).toMatchObject({ id: second, subject: 'Second!' });
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/change-requests?status=bogus`)).status).toBe(400);
    expect((await folio.request('PATCH', `/v1/spaces/${spaceId}/change-requests/${second}`, { subject: 'x'.repeat(101) })).status).toBe(400);

    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', document: { markdown: '# Draft page\n\nhello\n' } }] });
    const crPages = (await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`)).pages;
    expect(crPages.map((p: { title: string }) => p.title)).toEqual(['Draft page']);
    expect((await call('GET', `/v1/spaces/${spaceId}/content/pages`)).pages).toEqual([]);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/change-requests/nope`)).status).toBe(404);
  });

  it('update_page: front matter updates metadata, no front matter leaves it; bad batches change nothing', async () => {
    const { spaceId, a, b } = await seeded();
    const cr = await newCr(spaceId);
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
      changes: [
        { operation: 'update_page', page: a, document: { markdown: '---\ndescription: Now described\n---\n\n# Alpha 2\n\nchanged\n' } },
        { operation: 'update_page', page: b, title: 'Beta renamed' },
      ],
    });
    const pages = (await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`)).pages;
    expect(pages.find((p: { id: string }) => p.id === a)).toMatchObject({ title: 'Alpha 2', description: 'Now described' });
    expect(pages.find((p: { id: string }) => p.id === b)).toMatchObject({ title: 'Beta renamed', description: 'Bee' });
    const before = (await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}`)).revision;
    const bad = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
      changes: [{ operation: 'delete_page', page: a }, { operation: 'update_page', page: 'missing', title: 'x' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 400 } });
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}`)).revision).toBe(before);
    expect((await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { changes: [] })).status).toBe(400);
  });

  it('merges into a new primary revision of type merge; behind, merges three-way per page', async () => {
    const { spaceId, a, b } = await seeded();
    const one = await newCr(spaceId, 'one');
    const two = await newCr(spaceId, 'two');
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${one}/content`, { changes: [{ operation: 'update_page', page: a, document: { markdown: '# Alpha\n\nfrom one\n' } }] });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${two}/content`, { changes: [{ operation: 'update_page', page: b, document: { markdown: '# Beta\n\nfrom two\n' } }] });
    const m1 = await call('POST', `/v1/spaces/${spaceId}/change-requests/${one}/merge`);
    expect(m1.result).toBe('merge');
    const revision = await call('GET', `/v1/spaces/${spaceId}/content`);
    expect(revision).toMatchObject({ id: m1.revision, type: 'merge', mergedFrom: { id: one, status: 'merged' } });
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests/${two}`)).outdated).toBe(true);
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${two}/merge`);
    expect(await markdown(spaceId, a)).toBe('# Alpha\n\nfrom one\n');
    expect(await markdown(spaceId, b)).toBe('# Beta\n\nfrom two\n');
    const changes = (await call('GET', `/v1/spaces/${spaceId}/revisions/${m1.revision}/changes`)).changes;
    expect(changes.map((c: { type: string; page: { id: string } }) => [c.type, c.page.id])).toEqual([['page_edited', a]]);
  });

  it('a real conflict is a 409 that changes nothing; update brings a change request up to date', async () => {
    const { spaceId, a, b } = await seeded();
    const one = await newCr(spaceId, 'one');
    const two = await newCr(spaceId, 'two');
    const three = await newCr(spaceId, 'three');
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${one}/content`, { changes: [{ operation: 'update_page', page: a, document: { markdown: '# Alpha\n\none\n' } }] });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${two}/content`, { changes: [{ operation: 'update_page', page: a, document: { markdown: '# Alpha\n\ntwo\n' } }] });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${three}/content`, { changes: [{ operation: 'delete_page', page: b }] });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${one}/merge`);
    const primary = (await folio.store.spaces.get(spaceId))!.revisionId;
    const clash = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${two}/merge`);
    expect(clash.status).toBe(409);
    expect(clash.body.error.message).toContain(a);
    expect((await folio.store.spaces.get(spaceId))!.revisionId).toBe(primary);
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests/${two}`)).status).toBe('open');
    expect((await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${two}/update`)).status).toBe(409);

    const updated = await call('POST', `/v1/spaces/${spaceId}/change-requests/${three}/update`);
    expect(updated.result).toBe('update');
    expect(await markdown(spaceId, a, three)).toBe('# Alpha\n\none\n');
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests/${three}`)).outdated).toBe(false);
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${three}/merge`);
    expect((await call('GET', `/v1/spaces/${spaceId}/content/pages`)).pages.map((p: { id: string }) => p.id)).toEqual([a]);
  });

  it('editMode locked blocks edits and merges with a clear 403', async () => {
    const { spaceId, a } = await seeded();
    const cr = await newCr(spaceId);
    await call('PATCH', `/v1/spaces/${spaceId}`, { editMode: 'locked' });
    const edit = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { changes: [{ operation: 'delete_page', page: a }] });
    expect(edit.status).toBe(403);
    expect(edit.body.error.message).toMatch(/locked/);
    expect((await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(403);
    await call('PATCH', `/v1/spaces/${spaceId}`, { editMode: 'live' });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { changes: [{ operation: 'delete_page', page: a }] });
  });

  it('drives Folio with the official GitBookAPI client: space, pages, change request edit, merge, read back', async () => {
    const api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const { data: space } = await api.orgs.createSpace(folio.organizationId, { title: 'Client' });
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Add intro' });
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'insert_page', document: { markdown: '# Intro\n\nWritten through the client.\n' } }],
    } as never);
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const { data: listed } = await api.spaces.listPages(space.id);
    expect(listed.pages.map((p) => p.title)).toEqual(['Intro']);
    const { data: page } = await api.spaces.getPageById(space.id, listed.pages[0]!.id, { format: 'markdown' });
    expect((page as { markdown?: string }).markdown).toBe('# Intro\n\nWritten through the client.\n');
  });
});
