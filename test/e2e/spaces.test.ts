import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIds } from '../../src/temporal/contract/index.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';

/**
 * The first end-to-end chain: HTTP request → Temporal workflow (real dev server) → activity → content store
 * (PGlite) → HTTP response.
 */
describe('end to end: create a space through the API', () => {
  let folio: TestFolio;
  beforeAll(async () => {
    folio = await sharedFolio();
  });
  afterAll(async () => {
    await folio?.stop();
  });

  it('answers /healthz without a token', async () => {
    const res = await fetch(`${folio.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', temporal: 'ok', store: 'ok' });
  });

  it('refuses /v1 without a valid bearer token', async () => {
    const none = await fetch(`${folio.baseUrl}/v1/orgs/${folio.organizationId}`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { code: 401 } });
    const bad = await folio.request('GET', `/v1/orgs/${folio.organizationId}`, undefined, { authorization: 'Bearer nope' });
    expect(bad.status).toBe(401);
  });

  it('creates a space by running the createSpace workflow, then serves it', async () => {
    const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Handbook', emoji: '1f4d8' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'space', title: 'Handbook', organization: folio.organizationId, editMode: 'live' });
    const spaceId: string = created.body.id;
    expect(created.body.revision).toMatch(/\S/);

    // The workflow really ran on Temporal and completed.
    const handle = folio.client.workflow.getHandle(workflowIds.createSpace(spaceId));
    const description = await handle.describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.taskQueue).toBe(folio.config.taskQueue);

    // The activity wrote the store, and the API reads it back.
    const stored = await folio.store.spaces.get(spaceId);
    expect(stored?.revisionId).toBe(created.body.revision);
    const fetched = await folio.request('GET', `/v1/spaces/${spaceId}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);

    const listed = await folio.request('GET', `/v1/orgs/${folio.organizationId}/spaces`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((s: { id: string }) => s.id)).toContain(spaceId);
  });

  it('rejects an invalid body with 400 and an unknown organization with 404', async () => {
    const invalid = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { editMode: 'sideways' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: { code: 400 } });
    const unknown = await folio.request('POST', '/v1/orgs/no-such-org/spaces', { title: 'x' });
    expect(unknown.status).toBe(404);
    const missing = await folio.request('GET', '/v1/spaces/does-not-exist');
    expect(missing.status).toBe(404);
  });

  it('returns 404 for another organization, as for an unknown one', async () => {
    await folio.store.orgs.create({ id: 'other-org', title: 'Other' });
    const other = await folio.request('GET', '/v1/orgs/other-org');
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: { code: 404, message: 'organization not found: other-org' } });
  });
});
