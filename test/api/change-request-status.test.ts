/**
 * Issue 27: a change request's status moves between the official values with the allowed moves only
 * (src/change-requests/status.ts): draft ⇄ open, either → archived, archived → open or draft, merged is final and
 * reached by a merge of an open change request only; a move not allowed is a 400 naming it; merging needs `review`.
 * Success bodies are checked against the official spec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiBed, type ApiBed, type Person } from '../helpers/api-bed.js';
import { assertContract } from '../helpers/openapi-contract.js';

let bed: ApiBed;
let space: string;
let editor: Person;
let reviewer: Person;

async function call(who: Person, method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const res = await bed.request(who, method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)?.slice(0, 400)}`).toBe(status);
  if (status < 300) assertContract(method, path, status, res.body);
  return res.body;
}

beforeAll(async () => {
  bed = await startApiBed('cr-status-org');
  editor = await bed.person('Ed Editor', 'edit');
  reviewer = await bed.person('Rae Reviewer', 'review');
  space = (await bed.store.spaces.create(bed.organizationId, { title: 'Statuses' })).id;
  const { id } = await bed.store.revisions.create({
    spaceId: space,
    parents: [],
    type: 'edits',
    pages: [{ id: 'pdoc', kind: 'document', title: 'Doc', slug: 'doc', path: 'doc', body: new TextEncoder().encode('# Doc\n\nFirst.\n') }],
    files: [],
  });
  await bed.store.spaces.setPrimaryRevision(space, id);
});
afterAll(async () => {
  await bed?.close();
});

describe('change-request status moves', () => {
  it('moves draft ⇄ open, to archived and back; a draft or an archived one is not merged; merged is final', async () => {
    const cr = await call(editor, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Moves' }, 201);
    const p = `/v1/spaces/${space}/change-requests/${cr.id}`;
    expect(cr.status).toBe('open');
    for (const status of ['draft', 'draft', 'open', 'archived', 'draft', 'archived', 'open'])
      expect((await call(editor, 'PATCH', p, { status })).status).toBe(status);

    await call(editor, 'PATCH', p, { status: 'draft' });
    const draft = await call(reviewer, 'POST', `${p}/merge`, {}, 400);
    expect(draft.error.message).toMatch(/draft; mark it ready \(status "open"\)/);
    await call(editor, 'PATCH', p, { status: 'archived' });
    expect((await call(reviewer, 'POST', `${p}/merge`, {}, 400)).error.message).toMatch(/archived; reopen it/);
    // An archived change request is neither edited nor updated until reopened.
    const edit = { changes: [{ operation: 'update_page', page: 'pdoc', document: { markdown: '# Doc\n\nSecond.\n' } }] };
    expect((await call(editor, 'POST', `${p}/content`, edit, 400)).error.message).toMatch(/archived; reopen it/);
    expect((await call(editor, 'POST', `${p}/update`, {}, 400)).error.message).toMatch(/archived; reopen it/);
    // `merged` is reached by a merge only.
    expect((await call(editor, 'PATCH', p, { status: 'merged' }, 400)).error.code).toBe(400);
    expect((await call(editor, 'GET', p)).status).toBe('archived');

    // Merged is final: marked merged (the merge itself runs as a workflow, tested with Temporal elsewhere).
    await call(editor, 'PATCH', p, { status: 'open' });
    await bed.store.changeRequests.markMerged(cr.id, (await bed.store.spaces.get(space))!.revisionId!, reviewer.id);
    for (const status of ['open', 'draft', 'archived']) {
      const refused = await call(editor, 'PATCH', p, { status }, 400);
      expect(refused.error.message).toMatch(/already merged/);
    }
    expect((await call(editor, 'POST', `${p}/content`, edit, 400)).error.message).toMatch(/already merged/);
    expect((await call(editor, 'GET', p)).status).toBe('merged');
  });

  it('merging needs the review role: an editor gets 403, and nothing moves', async () => {
    const cr = await call(editor, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Not mine to merge' }, 201);
    const refused = await bed.request(editor, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`, {});
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe(403);
    expect((await call(editor, 'GET', `/v1/spaces/${space}/change-requests/${cr.id}`)).status).toBe('open');
  });
});
