import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract, contractErrors } from '../helpers/openapi-contract.js';

/** Content reads of the primary revision and of any revision, checked against the official spec's schemas. */
describe('content reads', () => {
  let folio: TestFolio;
  let spaceId: string;
  let first: string;
  let second: string;
  const enc = new TextEncoder();
  const intro = '---\ndescription: Start here\n---\n\n# Introduction\n\nHello **world** and `code`.\n\n## Next\n\n* one\n* two\n';
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

  async function get(path: string, status = 200) {
    const res = await folio.request('GET', path);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    assertContract('get', path, status, res.body);
    return res.body;
  }

  beforeAll(async () => {
    folio = await sharedFolio();
    const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Docs' });
    spaceId = created.body.id;
    first = created.body.revision;
    const r1 = await folio.store.revisions.create({
      spaceId,
      parents: [first],
      type: 'edits',
      pages: [
        { id: 'intro', kind: 'document', title: 'Introduction', slug: 'readme', path: '', data: { description: 'Start here' }, body: enc.encode(intro) },
        {
          id: 'guides',
          kind: 'group',
          title: 'Guides',
          slug: 'guides',
          children: [
            { id: 'install', kind: 'document', title: 'Install', slug: 'install', path: 'guides/install', body: enc.encode('# Install\n\nRun it.\n') },
            { id: 'ext', kind: 'link', title: 'Website', data: { href: 'https://example.com', target: { kind: 'url', url: 'https://example.com' } } },
          ],
        },
      ],
      files: [
        {
          id: 'logo',
          name: 'logo.png',
          contentType: 'image/png',
          size: png.length,
          bytes: png,
          git: { oid: 'a'.repeat(40), path: '.gitbook/assets/logo.png' },
        },
      ],
    });
    await folio.store.spaces.setPrimaryRevision(spaceId, r1.id);
    first = r1.id;
    const r2 = await folio.store.revisions.create({
      spaceId,
      parents: [first],
      type: 'edits',
      pages: [
        {
          id: 'intro',
          kind: 'document',
          title: 'Welcome',
          slug: 'readme',
          path: '',
          data: { description: 'Start here' },
          body: enc.encode('# Welcome\n\nHi.\n'),
        },
        {
          id: 'guides',
          kind: 'group',
          title: 'Guides',
          slug: 'guides',
          children: [{ id: 'new', kind: 'document', title: 'New', slug: 'new', path: 'guides/new', body: enc.encode('# New\n') }],
        },
        { id: 'install', kind: 'document', title: 'Install', slug: 'install', path: 'install', body: enc.encode('# Install\n\nRun it.\n') },
      ],
      files: [{ id: 'logo', name: 'logo.png', contentType: 'image/png', size: 3, bytes: new Uint8Array([1, 2, 3]) }],
    });
    second = r2.id;
  });
  afterAll(async () => {
    await folio?.stop();
  });

  it('serves the primary revision and its page tree', async () => {
    const revision = await get(`/v1/spaces/${spaceId}/content`);
    expect(revision).toMatchObject({ object: 'revision', id: first, type: 'edits' });
    const { pages } = await get(`/v1/spaces/${spaceId}/content/pages`);
    expect(pages.map((p: { id: string }) => p.id)).toEqual(['intro', 'guides']);
    expect(pages[0]).toMatchObject({ type: 'document', title: 'Introduction', description: 'Start here', path: '' });
    expect(pages[1].pages.map((p: { id: string; type: string }) => [p.id, p.type])).toEqual([
      ['install', 'document'],
      ['ext', 'link'],
    ]);
    expect(pages[1].pages[1].target).toEqual({ kind: 'url', url: 'https://example.com' });
  });

  it('serves a page as markdown or as a document, by id or by path', async () => {
    const md = await get(`/v1/spaces/${spaceId}/content/page/intro?format=markdown`);
    expect(md.markdown).toBe(intro);
    const doc = await get(`/v1/spaces/${spaceId}/content/page/intro`);
    expect(doc.document.object).toBe('document');
    const texts = JSON.stringify(doc.document.nodes);
    expect(texts).toContain('"bold"');
    expect(texts).toContain('heading-2');
    const byPath = await get(`/v1/spaces/${spaceId}/content/path/guides/install?format=markdown`);
    expect(byPath).toMatchObject({ id: 'install', markdown: '# Install\n\nRun it.\n' });
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/content/page/nope`)).status).toBe(404);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/content/path/no/where`)).status).toBe(404);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/content/page/intro?format=pdf`)).status).toBe(400);
  });

  it('lists files with pagination and serves their bytes at downloadURL', async () => {
    const list = await get(`/v1/spaces/${spaceId}/content/files?limit=1`);
    expect(list).toMatchObject({ count: 1, items: [{ id: 'logo', name: 'logo.png', contentType: 'image/png', size: png.length }] });
    expect(list.next).toBeUndefined();
    const file = await get(`/v1/spaces/${spaceId}/content/files/logo`);
    const download = await fetch(file.downloadURL, { headers: { authorization: `Bearer ${folio.token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(png);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/content/files?limit=0`)).status).toBe(400);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/content/files?limit=1001`)).status).toBe(400);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/content/files?page=garbage`)).status).toBe(400);
  });

  it('serves any revision and its changes against the parent', async () => {
    const revision = await get(`/v1/spaces/${spaceId}/revisions/${second}`);
    expect(revision.parents).toEqual([first]);
    const { changes } = await get(`/v1/spaces/${spaceId}/revisions/${second}/changes`);
    const summary = changes.map((c: { type: string; page?: { id: string }; file?: { id: string } }) => `${c.type}:${c.page?.id ?? c.file?.id}`).sort();
    expect(summary).toEqual(['file_edited:logo', 'page_created:new', 'page_deleted:ext', 'page_edited:intro', 'page_moved:install'].sort());
    const edited = changes.find((c: { type: string }) => c.type === 'page_edited');
    expect(edited.attributes.title).toEqual({ before: 'Introduction', after: 'Welcome' });
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/revisions/nope`)).status).toBe(404);
  });

  it('serves a revision’s and a change request’s pages, files and paths in the documented shapes', async () => {
    const rev = `/v1/spaces/${spaceId}/revisions/${second}`;
    expect((await get(`${rev}/pages`)).pages.map((p: { id: string }) => p.id)).toEqual(['intro', 'guides', 'install']);
    expect(await get(`${rev}/page/intro?format=markdown`)).toMatchObject({ id: 'intro', markdown: '# Welcome\n\nHi.\n' });
    expect((await get(`${rev}/page/intro`)).document.object).toBe('document');
    expect(await get(`${rev}/path/guides/new?format=markdown`)).toMatchObject({ id: 'new', markdown: '# New\n' });
    expect(await get(`${rev}/files`)).toMatchObject({ count: 1, items: [{ id: 'logo', size: 3 }] });
    expect(await get(`${rev}/files/logo`)).toMatchObject({ id: 'logo', size: 3 });

    const created = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Reads' });
    const cr = `/v1/spaces/${spaceId}/change-requests/${created.body.id}`;
    const edited = await folio.request('POST', `${cr}/content`, {
      changes: [{ operation: 'update_page', page: 'install', document: { markdown: '# Install\n\nRun it twice.\n' } }],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await get(`${cr}/content`)).toMatchObject({ object: 'revision', id: edited.body.revision, parents: [first] });
    expect(await get(`${cr}/content/files`)).toMatchObject({ count: 1, items: [{ id: 'logo', size: png.length }] });
    expect(await get(`${cr}/content/files/logo`)).toMatchObject({ id: 'logo', name: 'logo.png' });
    expect(await get(`${cr}/content/path/guides/install?format=markdown`)).toMatchObject({ id: 'install', markdown: '# Install\n\nRun it twice.\n' });
    expect(await get(`${cr}/content/page/install`)).toMatchObject({ id: 'install', path: 'guides/install' });
    await get(`${cr}/content/page/nope`, 404);
    await get(`${cr}/content/files/nope`, 404);
  });

  it('answers errors in the spec’s error shape: 400, 401, 404 (also for another organization’s space), 413, and 500 without internals', async () => {
    const bad = await get(`/v1/spaces/${spaceId}/content/page/intro?format=pdf`, 400);
    expect(bad.error.message).toMatch(/format/);
    await get(`/v1/spaces/${spaceId}/content/files?limit=0`, 400);
    await get(`/v1/spaces/${spaceId}/content/page/nope`, 404);
    await get('/v1/spaces/no-such-space', 404);

    const anonymous = await fetch(`${folio.baseUrl}/v1/spaces/${spaceId}`);
    expect(anonymous.status).toBe(401);
    assertContract('get', `/v1/spaces/${spaceId}`, 401, await anonymous.json());
    const wrongToken = await folio.request('GET', `/v1/spaces/${spaceId}`, undefined, { authorization: 'Bearer not-a-token' });
    expect(wrongToken.status).toBe(401);
    assertContract('get', `/v1/spaces/${spaceId}`, 401, wrongToken.body);

    await folio.store.orgs.ensure({ id: 'elsewhere', title: 'Elsewhere' });
    const foreign = await folio.store.spaces.create('elsewhere', { title: 'Not yours' });
    await get(`/v1/spaces/${foreign.id}`, 404);
    await get(`/v1/spaces/${foreign.id}/content/pages`, 404);

    // A body over the limit (10 MB): 413, in the error shape, and nothing changes.
    const before = (await folio.request('GET', `/v1/spaces/${spaceId}`)).body;
    const huge = await folio.request('PATCH', `/v1/spaces/${spaceId}`, { title: 'Too big', padding: 'x'.repeat(11 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    assertContract('patch', `/v1/spaces/${spaceId}`, 413, huge.body);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}`)).body.title).toBe(before.title);

    // An unexpected failure is a 500 that says nothing of the failure: no stack trace, no message, no secret.
    const spaces = folio.store.spaces;
    const original = spaces.get;
    spaces.get = async () => {
      throw new Error('database exploded at postgres://folio:hunter2@db.internal:5432/folio');
    };
    let failed;
    try {
      failed = await folio.request('GET', `/v1/spaces/${spaceId}`);
    } finally {
      spaces.get = original;
    }
    expect(failed.status).toBe(500);
    assertContract('get', `/v1/spaces/${spaceId}`, 500, failed.body);
    const text = JSON.stringify(failed.body);
    for (const leak of ['hunter2', 'db.internal', 'exploded', '.ts:', '.js:', 'at ']) expect(text).not.toContain(leak);
  });

  it('answers orgs and spaces in the documented shapes', async () => {
    await get('/v1/orgs');
    await get(`/v1/orgs/${folio.organizationId}`);
    await get(`/v1/orgs/${folio.organizationId}/spaces`);
    await get(`/v1/spaces/${spaceId}`);
    const patched = await folio.request('PATCH', `/v1/spaces/${spaceId}`, { title: 'Docs 2' });
    assertContract('patch', `/v1/spaces/${spaceId}`, 200, patched.body);
    // The helper really checks: a wrong shape fails.
    expect(contractErrors('get', `/v1/spaces/${spaceId}`, 200, { ...patched.body, editMode: 'sideways' })).not.toEqual([]);
  });

  it('pages spaces with an opaque cursor', async () => {
    for (const t of ['A', 'B']) await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: t });
    const page1 = await get(`/v1/orgs/${folio.organizationId}/spaces?limit=2`);
    expect(page1.items).toHaveLength(2);
    expect(page1.next.page).toEqual(expect.any(String));
    const page2 = await get(`/v1/orgs/${folio.organizationId}/spaces?limit=2&page=${encodeURIComponent(page1.next.page)}`);
    expect(page2.items.map((s: { id: string }) => s.id)).not.toContain(page1.items[0].id);
  });
});
