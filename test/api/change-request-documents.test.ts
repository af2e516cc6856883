import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract } from '../helpers/openapi-contract.js';
import { documentErrors } from '../helpers/document-schema.js';

/** Pages as GitBook JSON documents: read, edited through change requests, and reverted (`revert_page`). */
describe('change requests with JSON documents', () => {
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
    assertContract(method, path, status, res.body);
    return res.body;
  }
  const content = (spaceId: string, cr: string) => `/v1/spaces/${spaceId}/change-requests/${cr}/content`;
  const markdown = async (spaceId: string, cr: string, pageId: string) =>
    (await call('GET', `${content(spaceId, cr)}/page/${pageId}?format=markdown`)).markdown as string;

  it('reads a page as a schema-valid document, writes edited and new documents back as markdown, and reverts pages', async () => {
    const spaceId = (await call('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Docs' }, 201)).id as string;
    const seed = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'seed' }, 201)).id as string;
    const original = '---\ndescription: Alpha page\n---\n\n# Alpha\n\n- one\n- two\n\nFirst **text**.\n\n<div>kept html</div>\n';
    const seeded = await call('POST', `${content(spaceId, seed)}?compat=false`, {
      changes: [
        { operation: 'insert_page', ref: 'a', document: { markdown: original } },
        { operation: 'insert_page', ref: 'b', document: { markdown: '# Beta\n\nsecond\n' } },
      ],
    });
    const ids = Object.fromEntries(seeded.changes.map((c: { ref: string; page: { id: string } }) => [c.ref, c.page.id])) as Record<string, string>;
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${seed}/merge`);

    // The document of a page, by id and by path.
    const page = await call('GET', `/v1/spaces/${spaceId}/content/page/${ids.a}`);
    expect(documentErrors(page.document)).toEqual([]);
    expect(page.document.nodes.map((n: { type: string }) => n.type)).toEqual(['list-unordered', 'paragraph', 'paragraph']);
    expect((await call('GET', `/v1/spaces/${spaceId}/content/path/alpha`)).document).toEqual(page.document);

    const cr = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'documents' }, 201)).id as string;
    const edited = structuredClone(page.document);
    edited.nodes[1].nodes[0].leaves[0].text = 'Changed ';
    const inserted = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Made by a client', marks: [{ object: 'mark', type: 'italic' }] }] }],
        },
      ],
    };
    const res = await call('POST', `${content(spaceId, cr)}?compat=false`, {
      changes: [
        { operation: 'update_page', page: ids.a, document: { document: edited } },
        { operation: 'insert_page', ref: 'c', title: 'Gamma', document: { document: inserted } },
        { operation: 'delete_page', page: ids.b },
      ],
    });
    const c = res.changes.find((x: { ref?: string }) => x.ref === 'c').page.id as string;
    // Only the edited block changed; front matter, title, list markers and the kept HTML are as they were.
    expect(await markdown(spaceId, cr, ids.a)).toBe(original.replace('First **text**', 'Changed **text**'));
    expect(await markdown(spaceId, cr, c)).toBe('# Gamma\n\n_Made by a client_\n');
    expect((await call('GET', `${content(spaceId, cr)}/page/${c}`)).title).toBe('Gamma');

    // A malformed document is a 400 naming the place; nothing changes.
    const bad = await folio.request('POST', content(spaceId, cr), {
      changes: [
        { operation: 'update_page', page: ids.a, document: { document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'nope' }] } } },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/nope.*\/nodes\/0/);
    assertContract('POST', content(spaceId, cr), 400, bad.body);

    // revert_page: the edited page gets its document back, the added page goes, the deleted one returns.
    await call('POST', content(spaceId, cr), {
      changes: [
        { operation: 'revert_page', page: ids.a },
        { operation: 'revert_page', page: c },
        { operation: 'revert_page', page: ids.b },
      ],
    });
    expect(await markdown(spaceId, cr, ids.a)).toBe(original);
    expect((await folio.request('GET', `${content(spaceId, cr)}/page/${c}`)).status).toBe(404);
    expect(await markdown(spaceId, cr, ids.b)).toBe('# Beta\n\nsecond\n');
    const unsupported = await folio.request('POST', content(spaceId, cr), { changes: [{ operation: 'revert_page', page: ids.a, block: ['x'] }] });
    expect(unsupported.status).toBe(400);
  }, 240_000);
  it('finds a change request by its number as by its id, and lists what it changes (getChangeRequestChanges)', async () => {
    const spaceId = (await call('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Numbers' }, 201)).id as string;
    const seed = await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'seed' }, 201);
    const seeded = await call('POST', `${content(spaceId, seed.id)}?compat=false`, {
      changes: [{ operation: 'insert_page', ref: 'a', document: { markdown: '# Alpha\n\nfirst\n' } }],
    });
    const a = seeded.changes[0].page.id as string;
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${seed.id}/merge`);
    const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'second' }, 201);
    expect(cr.number).toBe(2);
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests/2`)).id).toBe(cr.id);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}/change-requests/3`)).status).toBe(404);
    expect((await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/changes`)).changes).toEqual([]);
    await call('POST', content(spaceId, '2'), {
      changes: [
        { operation: 'update_page', page: a, document: { markdown: '# Alpha\n\nedited\n' } },
        { operation: 'insert_page', ref: 'b', document: { markdown: '# Beta\n' } },
      ],
    });
    const changes = (await call('GET', `/v1/spaces/${spaceId}/change-requests/2/changes`)).changes as Array<{ type: string; page: { id: string } }>;
    expect(changes.map((c) => c.type).sort()).toEqual(['page_created', 'page_edited']);
    expect(changes.find((c) => c.type === 'page_edited')!.page.id).toBe(a);
    const limited = await call('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/changes?limit=1`);
    expect(limited).toMatchObject({ more: 1 });
    expect(limited.changes).toHaveLength(1);
  }, 240_000);
});
