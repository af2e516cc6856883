/**
 * Issue 27: collections in the official shapes — create, list (nested or top level), get, update, delete, the spaces
 * inside, moving spaces and collections (cycles refused), the seed's limits (title ≤ 50, description ≤ 100), a
 * non-empty collection that cannot be deleted, default levels and grants inherited by what a collection holds, and
 * another organization's collections answering 404. Every success body is checked strictly against the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiBed, type ApiBed, type Person } from '../helpers/api-bed.js';
import { assertContract } from '../helpers/openapi-contract.js';

let bed: ApiBed;
const org = () => bed.organizationId;

async function call(who: Person, method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const res = await bed.request(who, method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)?.slice(0, 400)}`).toBe(status);
  if (status < 300 || status >= 400) assertContract(method, path, status, res.body);
  return res.body;
}

const newCollection = async (title: string, parent?: string, who: Person = bed.service) =>
  (await call(who, 'POST', `/v1/orgs/${org()}/collections`, { title, ...(parent ? { parent } : {}) }, 201)) as { id: string };

beforeAll(async () => {
  bed = await startApiBed('collections-org');
});
afterAll(async () => {
  await bed?.close();
});

describe('collections: the official routes', () => {
  it('create, get, update, list (nested and top level), spaces inside, move, delete', async () => {
    const a = await newCollection('Guides');
    expect(a).toMatchObject({ object: 'collection', title: 'Guides', organization: org(), defaultLevel: 'inherit' });
    const b = await newCollection('Nested', a.id);
    expect(b).toMatchObject({ parent: a.id });
    const got = await call(bed.service, 'GET', `/v1/collections/${a.id}`);
    expect(got.permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    const patched = await call(bed.service, 'PATCH', `/v1/collections/${a.id}`, { title: 'Handbooks', description: 'All of them', defaultLevel: 'read' });
    expect(patched).toMatchObject({ title: 'Handbooks', description: 'All of them', defaultLevel: 'read' });
    expect((await call(bed.service, 'GET', `/v1/orgs/${org()}/collections`)).items.map((c: { id: string }) => c.id)).toEqual([a.id, b.id]);
    expect((await call(bed.service, 'GET', `/v1/orgs/${org()}/collections?nested=false`)).items.map((c: { id: string }) => c.id)).toEqual([a.id]);
    const page = await call(bed.service, 'GET', `/v1/orgs/${org()}/collections?limit=1`);
    expect(page).toMatchObject({ count: 2, items: [{ id: a.id }], next: { page: expect.any(String) } });

    const space = await bed.store.spaces.create(org(), { title: 'Inside' });
    const moved = await call(bed.service, 'POST', `/v1/spaces/${space.id}/move`, { parent: b.id });
    expect(moved).toMatchObject({ id: space.id, parent: b.id });
    const inside = await call(bed.service, 'GET', `/v1/collections/${b.id}/spaces`);
    expect(inside).toMatchObject({ count: 1, items: [{ id: space.id, parent: b.id }] });
    expect((await call(bed.service, 'GET', `/v1/collections/${a.id}/spaces`)).count).toBe(0);

    const top = await call(bed.service, 'POST', `/v1/collections/${b.id}/move`, { parent: null });
    expect(top.parent).toBeUndefined();
    expect((await call(bed.service, 'POST', `/v1/collections/${b.id}/move`, { parent: a.id })).parent).toBe(a.id);

    const empty = await newCollection('Empty');
    await call(bed.service, 'DELETE', `/v1/collections/${empty.id}`, undefined, 205);
    await call(bed.service, 'DELETE', `/v1/collections/${empty.id}`, undefined, 204);
    await call(bed.service, 'GET', `/v1/collections/${empty.id}`, undefined, 404);
  });

  it('the seed’s limits: title ≤ 50, description ≤ 100; unknown members and positions are refused', async () => {
    await call(bed.service, 'POST', `/v1/orgs/${org()}/collections`, { title: 'x'.repeat(50) }, 201);
    const long = await call(bed.service, 'POST', `/v1/orgs/${org()}/collections`, { title: 'x'.repeat(51) }, 400);
    expect(long.error.message).toMatch(/title/);
    const c = await newCollection('Limits');
    await call(bed.service, 'PATCH', `/v1/collections/${c.id}`, { description: 'd'.repeat(100) });
    expect((await call(bed.service, 'PATCH', `/v1/collections/${c.id}`, { description: 'd'.repeat(101) }, 400)).error.message).toMatch(/description/);
    expect((await call(bed.service, 'PATCH', `/v1/collections/${c.id}`, { colour: 'red' }, 400)).error.message).toMatch(/unknown member "colour"/);
    const s = await bed.store.spaces.create(org(), { title: 'Positioned' });
    const position = { before: { type: 'space', space: s.id } };
    expect((await call(bed.service, 'POST', `/v1/spaces/${s.id}/move`, { parent: c.id, position }, 400)).error.message).toMatch(/position/);
    expect((await bed.store.spaces.get(s.id))!.parent).toBeNull();
  });

  it('moves that would make a cycle answer 409 and change nothing', async () => {
    const outer = await newCollection('Outer');
    const middle = await newCollection('Middle', outer.id);
    const inner = await newCollection('Inner', middle.id);
    for (const [id, parent] of [
      [outer.id, inner.id],
      [outer.id, middle.id],
      [middle.id, middle.id],
    ]) {
      const res = await call(bed.service, 'POST', `/v1/collections/${id}/move`, { parent }, 409);
      expect(res.error.message).toMatch(/cannot move into/);
    }
    expect((await bed.store.collections.get(outer.id))!.parent).toBeNull();
    expect((await bed.store.collections.get(middle.id))!.parent).toBe(outer.id);
  });

  it('nesting stops at 10 levels (the permission cascade reads them all)', async () => {
    let parent: string | undefined;
    const chain: string[] = [];
    for (let i = 0; i < 10; i++) chain.push((parent = (await newCollection(`Level ${i + 1}`, parent)).id));
    expect((await call(bed.service, 'POST', `/v1/orgs/${org()}/collections`, { title: 'Eleventh', parent }, 400)).error.message).toMatch(/at most 10 deep/);
    // A two-level collection cannot go under level 9 either (9 + 2 > 10).
    const pair = await newCollection('Pair');
    await newCollection('Pair child', pair.id);
    await call(bed.service, 'POST', `/v1/collections/${pair.id}/move`, { parent: chain[8] }, 400);
    await call(bed.service, 'POST', `/v1/collections/${pair.id}/move`, { parent: chain[7] });
  });

  it('deleting a non-empty collection answers 409 naming what it holds; emptied, it goes', async () => {
    const box = await newCollection('Box');
    const child = await newCollection('Box child', box.id);
    const space = await bed.store.spaces.create(org(), { title: 'In the box' });
    await call(bed.service, 'POST', `/v1/spaces/${space.id}/move`, { parent: box.id });
    const refused = await call(bed.service, 'DELETE', `/v1/collections/${box.id}`, undefined, 409);
    expect(refused.error.message).toBe(`collection ${box.id} is not empty: it holds 1 space(s) and 1 collection(s); move or delete them first`);
    await call(bed.service, 'POST', `/v1/spaces/${space.id}/move`, { parent: null });
    await call(bed.service, 'DELETE', `/v1/collections/${child.id}`, undefined, 205);
    // A deleted space inside does not keep it alive; it comes back at the top level when restored.
    const gone = await bed.store.spaces.create(org(), { title: 'Deleted inside' });
    await call(bed.service, 'POST', `/v1/spaces/${gone.id}/move`, { parent: box.id });
    await bed.store.spaces.markDeleted(gone.id);
    await call(bed.service, 'DELETE', `/v1/collections/${box.id}`, undefined, 205);
    expect((await bed.store.spaces.restore(gone.id)).parent).toBeNull();
  });
});

describe('collections: what their content inherits', () => {
  it('a collection’s defaultLevel and grants reach the spaces (and collections) inside it', async () => {
    const reader = await bed.person('Reader', 'read');
    const closed = await newCollection('Closed');
    await call(bed.service, 'PATCH', `/v1/collections/${closed.id}`, { defaultLevel: null });
    const nested = await newCollection('Closed inner', closed.id);
    const space = await bed.store.spaces.create(org(), { title: 'Secret' });
    await call(bed.service, 'POST', `/v1/spaces/${space.id}/move`, { parent: nested.id });
    // Nothing by default: the space and both collections are invisible to a reader.
    await call(reader, 'GET', `/v1/spaces/${space.id}`, undefined, 404);
    await call(reader, 'GET', `/v1/collections/${nested.id}`, undefined, 404);
    expect((await call(reader, 'GET', `/v1/orgs/${org()}/collections`)).items.map((c: { id: string }) => c.id)).not.toContain(closed.id);
    // A grant of `edit` on the outer collection: the space inside inherits it.
    await call(bed.service, 'PATCH', `/v1/collections/${closed.id}/permissions/users/${reader.id}`, { role: 'edit' }, 204);
    const seen = await call(reader, 'GET', `/v1/spaces/${space.id}`);
    expect(seen.permissions).toMatchObject({ view: true, edit: true, admin: false });
    expect((await call(reader, 'GET', `/v1/collections/${nested.id}`)).permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: false,
    });
    expect((await call(reader, 'GET', `/v1/collections/${closed.id}/permissions/aggregate`)).items).toContainEqual(
      expect.objectContaining({ permission: 'edit', user: expect.objectContaining({ id: reader.id }) }),
    );
    expect((await call(reader, 'GET', `/v1/collections/${nested.id}/spaces`)).items.map((s: { id: string }) => s.id)).toEqual([space.id]);
    // The reader cannot administer it (403 with the code), nor move the space.
    expect((await call(reader, 'PATCH', `/v1/collections/${closed.id}`, { title: 'Mine' }, 403)).error.message).toMatch(/INSUFFICIENT_ROLE/);
    await call(reader, 'POST', `/v1/spaces/${space.id}/move`, { parent: null }, 403);
    // A default level on the collection: every member gets it.
    const open = await newCollection('Open');
    await call(bed.service, 'PATCH', `/v1/collections/${open.id}`, { defaultLevel: 'comment' });
    const other = await bed.store.spaces.create(org(), { title: 'Discussed' });
    await call(bed.service, 'POST', `/v1/spaces/${other.id}/move`, { parent: open.id });
    expect((await call(reader, 'GET', `/v1/spaces/${other.id}`)).permissions).toMatchObject({ comment: true, edit: false });
  });

  it('a creator who is not an admin administers the collection they made; moving into it needs create there', async () => {
    const creator = await bed.person('Creator', 'create');
    const editor = await bed.person('Editor', 'edit');
    const theirs = await newCollection('Creator’s', undefined, creator);
    expect(theirs).toMatchObject({ permissions: { admin: true, create: true } });
    await call(creator, 'PATCH', `/v1/collections/${theirs.id}`, { title: 'Renamed' });
    const space = await bed.store.spaces.create(org(), { title: 'Editor’s' });
    await bed.store.permissions.set(org(), { kind: 'space', id: space.id }, [{ kind: 'user', id: editor.id }], 'admin', { via: 'cli' });
    expect((await call(editor, 'POST', `/v1/spaces/${space.id}/move`, { parent: theirs.id }, 403)).error.message).toMatch(/create role on collection/);
    await call(editor, 'POST', `/v1/orgs/${org()}/collections`, { title: 'Not allowed' }, 403);
  });
});

describe('collections: tenants', () => {
  it('another organization’s collection answers 404 (DELETE 204) and cannot be a parent', async () => {
    await bed.store.orgs.create({ id: 'collections-other', title: 'Other' });
    const otherToken = await bed.store.tokens.create('collections-other', { label: 'other' });
    const theirs = await call({ id: otherToken.id, token: otherToken.token }, 'POST', '/v1/orgs/collections-other/collections', { title: 'Theirs' }, 201);
    const unknownBody = await call(bed.service, 'GET', `/v1/collections/no-such-collection`, undefined, 404);
    const foreignBody = await call(bed.service, 'GET', `/v1/collections/${theirs.id}`, undefined, 404);
    expect(foreignBody.error.message.replace(theirs.id, 'X')).toBe(unknownBody.error.message.replace('no-such-collection', 'X'));
    await call(bed.service, 'PATCH', `/v1/collections/${theirs.id}`, { title: 'Taken' }, 404);
    await call(bed.service, 'GET', `/v1/collections/${theirs.id}/spaces`, undefined, 404);
    await call(bed.service, 'POST', `/v1/collections/${theirs.id}/move`, { parent: null }, 404);
    await call(bed.service, 'DELETE', `/v1/collections/${theirs.id}`, undefined, 204);
    const mine = await bed.store.spaces.create(org(), { title: 'Mine' });
    const refused = await call(bed.service, 'POST', `/v1/spaces/${mine.id}/move`, { parent: theirs.id }, 400);
    expect(refused.error.message).toBe(`parent: collection not found: ${theirs.id}`);
    await call(bed.service, 'POST', `/v1/orgs/${org()}/collections`, { title: 'Sneaky', parent: theirs.id }, 400);
    expect((await bed.store.collections.get(theirs.id))!.title).toBe('Theirs');
  });
});
