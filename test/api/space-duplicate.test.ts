/**
 * Issue 27: `POST /v1/spaces/{spaceId}/duplicate` (the official `duplicateSpace`) through GitBook's own client: a new
 * space of the organization with the source's pages, bodies and files, made by the workflow
 * `space/<source>/duplicate/<copy>`; the 201 Space is checked against the spec; the copy and the source then change
 * apart; `create` is needed (a reader gets 403).
 */
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIds } from '../../src/temporal/contract/index.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract } from '../helpers/openapi-contract.js';

let folio: TestFolio;
beforeAll(async () => {
  folio = await sharedFolio();
});
afterAll(async () => {
  await folio?.stop();
});

const markdownOf = async (api: GitBookAPI, spaceId: string, pageId: string) =>
  ((await api.spaces.getPageById(spaceId, pageId, { format: 'markdown' })).data as unknown as { markdown: string }).markdown;

describe('space duplicate', () => {
  it('copies the pages, bodies and files into a new space (a workflow); the two then change apart', async () => {
    const api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const { data: source } = await api.orgs.createSpace(folio.organizationId, { title: 'Handbook', emoji: '📘' } as never);
    const { data: cr } = await api.spaces.createChangeRequest(source.id, { subject: 'seed' });
    await api.spaces.updateChangeRequestContent(source.id, cr.id, {
      changes: [
        { operation: 'insert_page', document: { markdown: '# Welcome\n\nHello.\n' } },
        { operation: 'insert_page', document: { markdown: '---\ndescription: Rules\n---\n\n# Rules\n\n* one\n* two\n' } },
        { operation: 'insert_files', files: [{ name: 'logo.txt', contentType: 'text/plain', base64: Buffer.from('logo').toString('base64') }] },
      ],
    } as never);
    await api.spaces.mergeChangeRequest(source.id, cr.id);
    const { data: sourcePages } = await api.spaces.listPages(source.id);

    const res = await api.spaces.duplicateSpace(source.id);
    expect(res.status).toBe(201);
    assertContract('POST', `/v1/spaces/${source.id}/duplicate`, 201, res.data);
    const copy = res.data;
    expect(copy.id).not.toBe(source.id);
    expect(copy).toMatchObject({ object: 'space', title: 'Handbook (copy)', organization: folio.organizationId });
    expect(res.headers.get('location')).toBe(copy.urls.location);
    const described = await folio.client.workflow.getHandle(workflowIds.duplicateSpace(source.id, copy.id)).describe();
    expect(described.status.name).toBe('COMPLETED');

    const { data: copyPages } = await api.spaces.listPages(copy.id);
    const shape = (pages: typeof copyPages.pages) => pages.map((p) => ({ id: p.id, title: p.title, path: p.path }));
    expect(shape(copyPages.pages)).toEqual(shape(sourcePages.pages));
    for (const p of sourcePages.pages) expect(await markdownOf(api, copy.id, p.id)).toBe(await markdownOf(api, source.id, p.id));
    const { data: files } = await api.spaces.listFiles(copy.id);
    expect(files.items.map((f) => f.name)).toEqual(['logo.txt']);

    // The copy changes apart from the source.
    const welcome = sourcePages.pages[0]!.id;
    const { data: edit } = await api.spaces.createChangeRequest(copy.id, { subject: 'edit the copy' });
    await api.spaces.updateChangeRequestContent(copy.id, edit.id, {
      changes: [{ operation: 'update_page', page: welcome, document: { markdown: '# Welcome\n\nHello from the copy.\n' } }],
    } as never);
    await api.spaces.mergeChangeRequest(copy.id, edit.id);
    expect(await markdownOf(api, copy.id, welcome)).toBe('# Welcome\n\nHello from the copy.\n');
    expect(await markdownOf(api, source.id, welcome)).toBe('# Welcome\n\nHello.\n');
  });

  it('needs create on the space: a reader gets 403 and no space is made', async () => {
    const admin = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const { data: source } = await admin.orgs.createSpace(folio.organizationId, { title: 'Guarded' });
    const reader = await folio.store.users.create({ displayName: 'Rita Reader', email: 'rita@dup.test' });
    await folio.store.members.add(folio.organizationId, reader.id, { role: 'read' }, { via: 'cli' });
    const asReader = new GitBookAPI({
      authToken: (await folio.store.tokens.create(folio.organizationId, { userId: reader.id, label: 'r' })).token,
      endpoint: folio.baseUrl,
    });
    const before = (await admin.orgs.listSpacesInOrganizationById(folio.organizationId, { limit: 100 })).data.items.length;
    const err = await asReader.spaces.duplicateSpace(source.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitBookAPIError);
    expect((err as GitBookAPIError).code).toBe(403);
    expect((await admin.orgs.listSpacesInOrganizationById(folio.organizationId, { limit: 100 })).data.items.length).toBe(before);
  });
});
