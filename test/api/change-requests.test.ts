import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract } from '../helpers/openapi-contract.js';

/** Change requests: edits in batches, content reads, merges (three-way when behind), update, lock. */
describe('change requests', () => {
  let folio: TestFolio;

  beforeAll(async () => {
    folio = await sharedFolio();
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
    assertContract('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, 200, res.body);
    const ids = Object.fromEntries(res.body.changes.map((p: { ref: string; page: { id: string } }) => [p.ref, p.page.id]));
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

    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', document: { markdown: '# Draft page\n\nhello\n' } }],
    });
    const crPages = (await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/pages`)).pages;
    expect(crPages.map((p: { title: string }) => p.title)).toEqual(['Draft page']);
    expect((await call('GET', `/v1/spaces/${spaceId}/content/pages`)).pages).toEqual([]);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/change-requests/nope`)).status).toBe(404);
  });

  it('an archived change request is not merged; a merge records who merged it and the merged revision', async () => {
    const { spaceId, a } = await seeded();
    const primaryBefore = (await call('GET', `/v1/spaces/${spaceId}`)).revision;
    const cr = await newCr(spaceId, 'archived edit');
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
      changes: [{ operation: 'update_page', page: a, document: { markdown: '# Alpha\n\narchived\n' } }],
    });
    await call('PATCH', `/v1/spaces/${spaceId}/change-requests/${cr}`, { status: 'archived' });
    const refused = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/archived/);
    expect((await call('GET', `/v1/spaces/${spaceId}`)).revision).toBe(primaryBefore);
    expect(await markdown(spaceId, a)).toBe('# Alpha\n\nfirst\n');

    // Reopened, it merges; another token merges it, so mergedBy is that token, not the creator.
    await call('PATCH', `/v1/spaces/${spaceId}/change-requests/${cr}`, { status: 'open' });
    const other = await folio.store.tokens.create(folio.organizationId, { label: 'merger' });
    const merged = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`, undefined, { authorization: `Bearer ${other.token}` });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const after = await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}`);
    expect(after).toMatchObject({ status: 'merged', revisionMerged: merged.body.revision, mergedBy: { id: other.id } });
    expect(after.createdBy.id).not.toBe(other.id);
    expect((await call('GET', `/v1/spaces/${spaceId}`)).revision).toBe(merged.body.revision);
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
      changes: [
        { operation: 'delete_page', page: a },
        { operation: 'update_page', page: 'missing', title: 'x' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 400 } });
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}`)).revision).toBe(before);
    expect((await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { changes: [] })).status).toBe(400);
  });

  it('compat=false answers the spec’s ChangeRequestContentUpdate: changes (one per page) and insertedFiles', async () => {
    const { spaceId, a, b } = await seeded();
    const cr = await newCr(spaceId);
    const path = `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`;
    const body = await call('POST', path, {
      changes: [
        { operation: 'insert_page', ref: 'n', document: { markdown: '# New\n' } },
        { operation: 'update_page', page: a, title: 'A1' },
        { operation: 'update_page', page: a, title: 'A2' },
        { operation: 'delete_page', page: b },
        { operation: 'insert_files', files: [{ ref: 'pic', name: 'pic.png', contentType: 'image/png', base64: Buffer.from('png bytes').toString('base64') }] },
      ],
    });
    expect(body.pages).toBeUndefined();
    expect(body.changeRequest).toMatchObject({ object: 'change-request', id: cr });
    expect(
      body.changes.map((c: { object: string; ref?: string; page: string | { id: string } }) => [
        c.object,
        c.ref,
        typeof c.page === 'string' ? c.page : c.page.id,
      ]),
    ).toEqual([
      ['created_page', 'n', expect.any(String)],
      ['updated_page', undefined, a],
      ['deleted_page', undefined, b],
    ]);
    expect(body.insertedFiles).toHaveLength(1);
    expect(body.insertedFiles[0]).toMatchObject({ name: 'pic.png', contentType: 'image/png', size: 9 });
    const file = await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/files/${body.insertedFiles[0].id}`);
    expect(file.name).toBe('pic.png');
    expect(
      (await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=maybe`, { changes: [{ operation: 'delete_page', page: a }] }))
        .status,
    ).toBe(400);
  });

  it('update_page: description replaces an existing one, into: null moves to the root, moves keep or append the position', async () => {
    const { spaceId, a, b } = await seeded();
    const cr = await newCr(spaceId);
    const { c } = await edit(spaceId, cr, [{ operation: 'insert_page', ref: 'c', into: a, document: { markdown: '# Gamma\n' } }]);
    await edit(spaceId, cr, [
      { operation: 'update_page', page: b, description: 'Replaced' },
      { operation: 'update_page', page: a, description: 'First description' },
    ]);
    const pages = async () =>
      (await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`)).pages as Array<{
        id: string;
        description?: string;
        path: string;
        pages: Tree;
      }>;
    expect((await pages()).map((p) => [p.id, p.description])).toEqual([
      [a, 'First description'],
      [b, 'Replaced'],
    ]);
    // The document's own front matter wins over the field in the same change.
    await edit(spaceId, cr, [
      { operation: 'update_page', page: b, description: 'ignored', document: { markdown: '---\ndescription: From front matter\n---\n\n# Beta\n' } },
    ]);
    expect((await pages()).find((p) => p.id === b)?.description).toBe('From front matter');

    await edit(spaceId, cr, [{ operation: 'update_page', page: c!, into: null }]);
    expect(shape(await pages())).toEqual([a, b, c]);
    expect((await pages()).find((p) => p.id === c)?.path).toBe('gamma');
    await edit(spaceId, cr, [{ operation: 'update_page', page: a, title: 'Alpha again', slug: 'alpha-again' }]);
    expect(shape(await pages())).toEqual([a, b, c]);
    await edit(spaceId, cr, [
      { operation: 'update_page', page: c!, into: b, at: 0 },
      { operation: 'update_page', page: b, into: a },
    ]);
    const nested = await pages();
    expect(shape(nested)).toEqual([{ [a]: [{ [b]: [c] }] }]);
    // Paths follow a moved page's descendants.
    expect(nested[0]!.pages[0]!.pages![0]).toMatchObject({ id: c, path: 'alpha-again/beta/gamma' });
    const cycle = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
      changes: [{ operation: 'update_page', page: a, into: c }],
    });
    expect(cycle.status).toBe(400);
    assertContract('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, 400, cycle.body);
  });

  it('merges into a new primary revision of type merge; behind, merges three-way per page', async () => {
    const { spaceId, a, b } = await seeded();
    const one = await newCr(spaceId, 'one');
    const two = await newCr(spaceId, 'two');
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${one}/content`, {
      changes: [{ operation: 'update_page', page: a, document: { markdown: '# Alpha\n\nfrom one\n' } }],
    });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${two}/content`, {
      changes: [{ operation: 'update_page', page: b, document: { markdown: '# Beta\n\nfrom two\n' } }],
    });
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

  /** Applies one batch (compat=false) to a change request; returns page ids by ref. */
  async function edit(spaceId: string, cr: string, changes: unknown[]): Promise<Record<string, string>> {
    const body = await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, { changes });
    return Object.fromEntries(body.changes.filter((c: { ref?: string }) => c.ref).map((c: { ref: string; page: { id: string } }) => [c.ref, c.page.id]));
  }
  type Tree = Array<{ id: string; pages?: Tree }>;
  const shape = (pages: Tree): unknown[] => pages.map((p) => (p.pages?.length ? { [p.id]: shape(p.pages) } : p.id));
  const primaryShape = async (spaceId: string) => shape((await call('GET', `/v1/spaces/${spaceId}/content/pages`)).pages);

  it('new pages get the one slug rule: non-ASCII titles keep their letters, a title a sibling has gets -2, a taken explicit slug is a 400', async () => {
    const spaceId = await newSpace();
    // Spaces, pages and change requests have ids of the one scheme (src/ids.ts): 20 base62 characters.
    expect(spaceId).toMatch(/^[0-9A-Za-z]{20}$/);
    const cr = await newCr(spaceId);
    expect(cr).toMatch(/^[0-9A-Za-z]{20}$/);
    const ids = await edit(spaceId, cr, [
      { operation: 'insert_page', ref: 'zh', document: { markdown: '# 快速開始\n' } },
      { operation: 'insert_page', ref: 'intro', document: { markdown: '# Intro\n' } },
      { operation: 'insert_page', ref: 'again', document: { markdown: '# Intro!\n' } },
      { operation: 'insert_page', ref: 'cafe', title: 'Café 🚀', document: { markdown: 'no heading\n' } },
    ]);
    const child = await edit(spaceId, cr, [{ operation: 'insert_page', ref: 'child', into: ids.intro, document: { markdown: '# Intro\n' } }]);
    const pages = (await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`)).pages as Array<{
      id: string;
      slug: string;
      path: string;
      pages: Array<{ id: string; slug: string; path: string }>;
    }>;
    const byId = new Map(pages.map((p) => [p.id, p]));
    for (const id of Object.values(ids)) expect(id).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(byId.get(ids.zh!)).toMatchObject({ slug: '快速開始', path: '快速開始' });
    expect(byId.get(ids.intro!)).toMatchObject({ slug: 'intro', path: 'intro' });
    expect(byId.get(ids.again!)).toMatchObject({ slug: 'intro-2', path: 'intro-2' });
    expect(byId.get(ids.cafe!)).toMatchObject({ slug: 'cafe', path: 'cafe' });
    // Only siblings count: a child may have its parent's slug.
    expect(byId.get(ids.intro!)!.pages[0]).toMatchObject({ id: child.child, slug: 'intro', path: 'intro/intro' });
    const taken = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
      changes: [{ operation: 'insert_page', slug: 'intro-2', document: { markdown: '# Other\n' } }],
    });
    expect(taken.status).toBe(400);
    expect(taken.body.error.message).toMatch(/already used/);
  });

  it('behind: a sibling deleted by one change request does not turn another’s edit of a page into a move', async () => {
    const { spaceId, a, b } = await seeded();
    const one = await newCr(spaceId, 'delete a');
    const two = await newCr(spaceId, 'edit b');
    await edit(spaceId, one, [{ operation: 'delete_page', page: a }]);
    await edit(spaceId, two, [{ operation: 'update_page', page: b, document: { markdown: '# Beta\n\nedited by two\n' } }]);
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${two}/merge`);
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${one}/merge`);
    expect(await primaryShape(spaceId)).toEqual([b]);
    expect(await markdown(spaceId, b)).toBe('# Beta\n\nedited by two\n');
  });

  it('a child moved out of a parent the change request deletes survives the merge (behind or not)', async () => {
    for (const behind of [false, true]) {
      const { spaceId, a, b } = await seeded();
      const setup = await newCr(spaceId, 'child');
      const { c } = await edit(spaceId, setup, [{ operation: 'insert_page', ref: 'c', into: a, document: { markdown: '# Child\n\nc\n' } }]);
      await call('POST', `/v1/spaces/${spaceId}/change-requests/${setup}/merge`);
      const cr = await newCr(spaceId, 'move and delete');
      await edit(spaceId, cr, [
        { operation: 'update_page', page: c!, into: b },
        { operation: 'delete_page', page: a },
      ]);
      expect(shape((await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`)).pages)).toEqual([{ [b]: [c] }]);
      if (behind) {
        const other = await newCr(spaceId, 'edit b');
        await edit(spaceId, other, [{ operation: 'update_page', page: b, document: { markdown: '# Beta\n\nfrom other\n' } }]);
        await call('POST', `/v1/spaces/${spaceId}/change-requests/${other}/merge`);
      }
      await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
      expect(await primaryShape(spaceId), `behind: ${behind}`).toEqual([{ [b]: [c] }]);
      expect(await markdown(spaceId, c!)).toBe('# Child\n\nc\n');
      const moved = await call('GET', `/v1/spaces/${spaceId}/content/page/${c}`);
      expect(moved.path).toBe(`beta/child`);
      if (behind) expect(await markdown(spaceId, b)).toBe('# Beta\n\nfrom other\n');
    }
  });

  it('behind: reorders, inserts and moves on both sides combine; delete against move is a 409', async () => {
    const { spaceId, a, b } = await seeded();
    const one = await newCr(spaceId, 'reorder and add');
    const two = await newCr(spaceId, 'add and nest');
    const { x } = await edit(spaceId, one, [
      { operation: 'update_page', page: b, at: 0 },
      { operation: 'insert_page', ref: 'x', document: { markdown: '# X\n' } },
    ]);
    const { y } = await edit(spaceId, two, [
      { operation: 'insert_page', ref: 'y', at: 0, document: { markdown: '# Y\n' } },
      { operation: 'update_page', page: a, title: 'Alpha!' },
    ]);
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${one}/merge`);
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${two}/merge`);
    expect(await primaryShape(spaceId)).toEqual([y, b, a, x]);
    expect((await call('GET', `/v1/spaces/${spaceId}/content/page/${a}`)).title).toBe('Alpha!');

    const mover = await newCr(spaceId, 'nest a');
    const deleter = await newCr(spaceId, 'delete a');
    await edit(spaceId, mover, [{ operation: 'update_page', page: a, into: b }]);
    await edit(spaceId, deleter, [{ operation: 'delete_page', page: a }]);
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${mover}/merge`);
    const primary = (await folio.store.spaces.get(spaceId))!.revisionId;
    const clash = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${deleter}/merge`);
    expect(clash.status).toBe(409);
    assertContract('POST', `/v1/spaces/${spaceId}/change-requests/${deleter}/merge`, 409, clash.body);
    expect(clash.body.error.message).toContain(a);
    expect((await folio.store.spaces.get(spaceId))!.revisionId).toBe(primary);
    expect(await primaryShape(spaceId)).toEqual([y, { [b]: [a] }, x]);
  });

  it('a real conflict is a 409 that changes nothing; update brings a change request up to date', async () => {
    const { spaceId, a, b } = await seeded();
    const one = await newCr(spaceId, 'one');
    const two = await newCr(spaceId, 'two');
    const three = await newCr(spaceId, 'three');
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${one}/content`, {
      changes: [{ operation: 'update_page', page: a, document: { markdown: '# Alpha\n\none\n' } }],
    });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${two}/content`, {
      changes: [{ operation: 'update_page', page: a, document: { markdown: '# Alpha\n\ntwo\n' } }],
    });
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

  it('behind: edits of different blocks of one page merge (update and merge, as workflows); the same block is a 409 naming page and blocks', async () => {
    const { spaceId, a } = await seeded();
    const page = (...paragraphs: string[]) => `# Alpha\n\n${paragraphs.join('\n\n')}\n`;
    const setup = await newCr(spaceId, 'blocks');
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${setup}/content`, {
      changes: [{ operation: 'update_page', page: a, document: { markdown: page('one', 'two', 'three') } }],
    });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${setup}/merge`);
    const edit = (cr: string, markdown: string) =>
      call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content`, { changes: [{ operation: 'update_page', page: a, document: { markdown } }] });
    const [first, second, third, clash] = [await newCr(spaceId, '1'), await newCr(spaceId, '2'), await newCr(spaceId, '3'), await newCr(spaceId, '4')];
    await edit(first, page('one!', 'two', 'three'));
    await edit(second, page('one', 'two', 'three!'));
    await edit(third, page('one', 'two?', 'three'));
    await edit(clash, page('one?', 'two', 'three'));
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${first}/merge`);
    // Behind by the first merge: merged block by block.
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${second}/merge`);
    expect(await markdown(spaceId, a)).toBe(page('one!', 'two', 'three!'));
    // Update: the primary content's edits come into the change request, its own edit kept.
    expect((await call('POST', `/v1/spaces/${spaceId}/change-requests/${third}/update`)).result).toBe('update');
    expect(await markdown(spaceId, a, third)).toBe(page('one!', 'two?', 'three!'));
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests/${third}`)).outdated).toBe(false);
    // The same block changed on both sides: 409 naming the page and the block; nothing of either side changes.
    const primary = (await folio.store.spaces.get(spaceId))!.revisionId;
    const refused = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${clash}/merge`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`page ${a}`);
    expect(refused.body.error.message).toMatch(/primary blocks 0–0, change request blocks 0–0/);
    expect((await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${clash}/update`)).status).toBe(409);
    expect((await folio.store.spaces.get(spaceId))!.revisionId).toBe(primary);
    expect(await markdown(spaceId, a, clash)).toBe(page('one?', 'two', 'three'));
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${third}/merge`);
    expect(await markdown(spaceId, a)).toBe(page('one!', 'two?', 'three!'));
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
