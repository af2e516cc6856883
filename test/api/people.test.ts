/**
 * Issue 26: people on the dev server, through the HTTP API — users, members (role changes, removal revoking the
 * member's tokens at once), invites by e-mail and by link, teams, permissions on a space for users and teams (the
 * cascade: organization role → space, most permissive wins; a space that stops inheriting), the `permissions` objects
 * compute for the caller, and the audit trail of every role and permission change, readable by admins only.
 * Every success body is checked strictly against the official spec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../src/store/index.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract } from '../helpers/openapi-contract.js';

let folio: TestFolio;
const org = () => folio.organizationId;

interface Person {
  id: string;
  token: string;
}

/** A member of the organization with a personal token. */
async function person(name: string, role: MemberRole | null, organizationId = org()): Promise<Person> {
  const user = await folio.store.users.create({ displayName: name, email: `${name.toLowerCase()}@people.test` });
  await folio.store.members.add(organizationId, user.id, { role }, { via: 'cli' });
  return { id: user.id, token: (await folio.store.tokens.create(organizationId, { userId: user.id, label: name })).token };
}

/** A request as `who` (default: the organization's service token); a success body is checked against the spec. */
async function call(who: Person | null, method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const res = await folio.request(method, path, body, who ? { authorization: `Bearer ${who.token}` } : {});
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)?.slice(0, 400)}`).toBe(status);
  if (status < 300 && !path.includes('/audit')) assertContract(method, path, status, res.body);
  return res.body;
}

beforeAll(async () => {
  folio = await startFolio();
});
afterAll(async () => {
  await folio?.stop();
});

describe('users and members', () => {
  it('GET /v1/user is the caller; a service token is no user', async () => {
    const ada = await person('Ada', 'admin');
    expect(await call(ada, 'GET', '/v1/user')).toMatchObject({ object: 'user', id: ada.id, displayName: 'Ada', email: 'ada@people.test' });
    expect((await folio.request('GET', '/v1/user')).status).toBe(404);
    const patched = await call(ada, 'PATCH', `/v1/users/${ada.id}`, { displayName: 'Ada L.', photoURL: 'https://example.com/ada.png' });
    expect(patched).toMatchObject({ displayName: 'Ada L.', photoURL: 'https://example.com/ada.png' });
    expect(await call(null, 'GET', `/v1/users/${ada.id}`)).toMatchObject({ displayName: 'Ada L.' });
    // Someone of another organization is nobody here.
    await folio.store.orgs.ensure({ id: 'elsewhere', title: 'Elsewhere' });
    const stranger = await person('Stranger', 'admin', 'elsewhere');
    expect((await folio.request('GET', `/v1/users/${stranger.id}`)).status).toBe(404);
    expect((await folio.request('GET', `/v1/users/${ada.id}`, undefined, { authorization: `Bearer ${stranger.token}` })).status).toBe(404);
    // Nobody changes another's profile.
    const bob = await person('Bob', 'edit');
    const refused = await folio.request('PATCH', `/v1/users/${ada.id}`, { displayName: 'Hijacked' }, { authorization: `Bearer ${bob.token}` });
    expect(refused.status).toBe(403);
  });

  it('lists, reads and updates members; the last admin stays; a removed member’s token is refused on its next request', async () => {
    const admin = await person('Grace', 'admin');
    const writer = await person('Wren', 'read');
    const list = await call(null, 'GET', `/v1/orgs/${org()}/members?role=read&sort=name&order=asc`);
    expect(list.items.map((m: { id: string }) => m.id)).toContain(writer.id);
    expect(list.items.every((m: { role: string }) => m.role === 'read')).toBe(true);
    expect((await call(null, 'GET', `/v1/orgs/${org()}/members?search=wren`)).items.map((m: { id: string }) => m.id)).toEqual([writer.id]);
    expect(await call(admin, 'GET', `/v1/orgs/${org()}/members/${writer.id}`)).toMatchObject({ object: 'member', role: 'read', sso: false, disabled: false });
    const promoted = await call(admin, 'PATCH', `/v1/orgs/${org()}/members/${writer.id}`, { role: 'edit' });
    expect(promoted.role).toBe('edit');
    // A reader cannot change roles: 403 with its code.
    const reader = await person('Rita', 'read');
    const denied = await folio.request('PATCH', `/v1/orgs/${org()}/members/${writer.id}`, { role: 'admin' }, { authorization: `Bearer ${reader.token}` });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/INSUFFICIENT_ROLE/);
    expect((await call(admin, 'GET', `/v1/orgs/${org()}/members/${writer.id}/teams`)).items).toEqual([]);

    expect((await folio.request('GET', `/v1/orgs/${org()}`, undefined, { authorization: `Bearer ${writer.token}` })).status).toBe(200);
    expect((await folio.request('DELETE', `/v1/orgs/${org()}/members/${writer.id}`, undefined, { authorization: `Bearer ${admin.token}` })).status).toBe(205);
    const after = await folio.request('GET', `/v1/orgs/${org()}`, undefined, { authorization: `Bearer ${writer.token}` });
    expect(after.status).toBe(401);
    expect((await folio.request('DELETE', `/v1/orgs/${org()}/members/${writer.id}`)).status).toBe(204);
    expect((await folio.store.tokens.list(org(), { userId: writer.id })).every((t) => t.revokedAt !== null)).toBe(true);
  });

  it('keeps one admin: the last admin member is neither demoted nor removed', async () => {
    await folio.store.orgs.ensure({ id: 'solo', title: 'Solo' });
    const only = await person('Only', 'admin', 'solo');
    expect((await folio.request('PATCH', `/v1/orgs/solo/members/${only.id}`, { role: 'read' }, { authorization: `Bearer ${only.token}` })).status).toBe(409);
    expect((await folio.request('DELETE', `/v1/orgs/solo/members/${only.id}`, undefined, { authorization: `Bearer ${only.token}` })).status).toBe(409);
  });
});

describe('invites', () => {
  it('invites by e-mail (a user made for an unknown address) and by link, which a user of another organization joins', async () => {
    const invited = await call(null, 'POST', `/v1/orgs/${org()}/invites`, {
      emails: ['new.person@people.test', { email: 'lead@people.test', role: 'create' }],
      role: 'comment',
    });
    expect(invited.invited).toBe(2);
    const [newcomer, lead] = invited.users as string[];
    expect((await call(null, 'GET', `/v1/orgs/${org()}/members/${newcomer}`)).role).toBe('comment');
    expect((await call(null, 'GET', `/v1/orgs/${org()}/members/${lead}`)).role).toBe('create');
    // Inviting again adds no one.
    expect((await call(null, 'POST', `/v1/orgs/${org()}/invites`, { emails: ['new.person@people.test'] })).invited).toBe(0);

    const link = await call(null, 'POST', `/v1/orgs/${org()}/link-invites`, { role: 'review' }, 201);
    expect(link).toMatchObject({ object: 'invite', role: 'review' });
    expect((await call(null, 'GET', `/v1/orgs/${org()}/link-invites`)).items.map((i: { id: string }) => i.id)).toContain(link.id);
    expect((await call(null, 'PATCH', `/v1/orgs/${org()}/link-invites/${link.id}`, { role: 'edit' })).role).toBe('edit');
    expect((await call(null, 'GET', `/v1/orgs/${org()}/link-invites/${link.id}`)).role).toBe('edit');
    await folio.store.orgs.ensure({ id: 'partner', title: 'Partner' });
    const visitor = await person('Visitor', 'admin', 'partner');
    expect((await folio.request('GET', `/v1/orgs/${org()}`, undefined, { authorization: `Bearer ${visitor.token}` })).status).toBe(404);
    await call(visitor, 'POST', `/v1/orgs/${org()}/invites/${link.id}`);
    expect((await call(null, 'GET', `/v1/orgs/${org()}/members/${visitor.id}`)).role).toBe('edit');
    // A personal token acts for its user in every organization they are a member of.
    expect((await folio.request('GET', `/v1/orgs/${org()}`, undefined, { authorization: `Bearer ${visitor.token}` })).status).toBe(200);
    const theirOrgs = await call(visitor, 'GET', '/v1/orgs');
    expect(theirOrgs.items.map((o: { id: string }) => o.id).sort()).toEqual([org(), 'partner'].sort());

    const space = await call(null, 'POST', `/v1/orgs/${org()}/spaces`, { title: 'Invited space' }, 201);
    const spaceLink = await call(null, 'POST', `/v1/orgs/${org()}/link-invites`, { level: 'comment', space: space.id }, 201);
    expect(spaceLink).toMatchObject({ level: 'comment', space: { id: space.id } });
    expect((await call(null, 'DELETE', `/v1/orgs/${org()}/link-invites/${link.id}`, undefined, 205)) ?? null).toBeNull();
    expect((await folio.request('DELETE', `/v1/orgs/${org()}/link-invites/${link.id}`)).status).toBe(204);
    expect((await folio.request('POST', `/v1/orgs/${org()}/invites/${link.id}`, undefined, { authorization: `Bearer ${visitor.token}` })).status).toBe(404);
  });
});

describe('teams and permissions on a space', () => {
  it('a team granted edit on one space edits it; inheritance, a space that stops inheriting, and the caller’s permissions', async () => {
    const reader = await person('Reed', 'read');
    const other = await person('Otto', 'read');
    const team = await call(null, 'PUT', `/v1/orgs/${org()}/teams`, { title: 'Writers', members: [reader.id] }, 201);
    expect(team).toMatchObject({ object: 'team', title: 'Writers', members: 1, spaces: 0, permissions: { admin: true, view: true } });
    expect((await folio.request('PUT', `/v1/orgs/${org()}/teams`, { title: '' })).status).toBe(400);
    expect((await folio.request('PUT', `/v1/orgs/${org()}/teams`, { title: 'x'.repeat(65) })).status).toBe(400);
    expect((await call(null, 'PATCH', `/v1/orgs/${org()}/teams/${team.id}`, { title: 'Editors' })).title).toBe('Editors');
    expect((await call(reader, 'GET', `/v1/orgs/${org()}/teams/${team.id}`)).permissions).toEqual({ admin: false, view: true });

    const docs = await call(null, 'POST', `/v1/orgs/${org()}/spaces`, { title: 'Docs' }, 201);
    const notes = await call(null, 'POST', `/v1/orgs/${org()}/spaces`, { title: 'Notes' }, 201);
    for (const s of [docs, notes]) await seedContent(s.id);
    // Readers read both and edit neither.
    expect((await call(reader, 'GET', `/v1/spaces/${docs.id}`)).permissions).toMatchObject({ view: true, edit: false, admin: false });
    expect((await folio.request('POST', `/v1/spaces/${docs.id}/change-requests`, { subject: 'x' }, { authorization: `Bearer ${reader.token}` })).status).toBe(
      403,
    );

    await call(null, 'POST', `/v1/spaces/${docs.id}/permissions`, { role: 'edit', teams: [team.id] }, 204);
    const teams = await call(reader, 'GET', `/v1/spaces/${docs.id}/permissions/teams`);
    expect(teams.items).toMatchObject([{ permission: 'edit', team: { id: team.id } }]);
    expect((await call(reader, 'GET', `/v1/spaces/${docs.id}`)).permissions).toMatchObject({ view: true, edit: true, merge: false, admin: false });
    const cr = await call(reader, 'POST', `/v1/spaces/${docs.id}/change-requests`, { subject: 'Team edit' }, 201);
    expect(cr.createdBy).toMatchObject({ id: reader.id, displayName: 'Reed' });
    expect((await folio.request('POST', `/v1/spaces/${notes.id}/change-requests`, { subject: 'x' }, { authorization: `Bearer ${reader.token}` })).status).toBe(
      403,
    );
    // Editors do not merge (review does).
    expect(
      (await folio.request('POST', `/v1/spaces/${docs.id}/change-requests/${cr.id}/merge`, undefined, { authorization: `Bearer ${reader.token}` })).status,
    ).toBe(403);
    // Not in the team: nothing more than the organization role.
    expect((await folio.request('POST', `/v1/spaces/${docs.id}/change-requests`, { subject: 'x' }, { authorization: `Bearer ${other.token}` })).status).toBe(
      403,
    );

    // A user grant, the most permissive wins, and the aggregate of everyone who can reach the space.
    await call(null, 'PATCH', `/v1/spaces/${docs.id}/permissions/users/${other.id}`, { role: 'review' }, 204);
    expect((await call(null, 'GET', `/v1/spaces/${docs.id}/permissions/users`)).items).toMatchObject([{ permission: 'review', user: { id: other.id } }]);
    const aggregate = await call(null, 'GET', `/v1/spaces/${docs.id}/permissions/aggregate`);
    const roles = Object.fromEntries(aggregate.items.map((i: { permission: string; user: { id: string } }) => [i.user.id, i.permission]));
    expect([roles[reader.id], roles[other.id]]).toEqual(['edit', 'review']);
    expect((await call(null, 'GET', `/v1/spaces/${docs.id}/permissions/aggregate?role=review`)).items.map((i: { user: { id: string } }) => i.user.id)).toEqual([
      other.id,
    ]);
    expect((await call(null, 'GET', `/v1/orgs/${org()}/members/${reader.id}/spaces`)).items).toEqual(
      expect.arrayContaining([expect.objectContaining({ permission: 'edit', space: expect.objectContaining({ id: docs.id }) })]),
    );

    // A space that stops inheriting: members get its default level (none here), grants still count.
    await call(null, 'PATCH', `/v1/spaces/${notes.id}`, { defaultLevel: null });
    expect((await folio.request('GET', `/v1/spaces/${notes.id}`, undefined, { authorization: `Bearer ${other.token}` })).status).toBe(404);
    const visible = await call(other, 'GET', `/v1/orgs/${org()}/spaces`);
    expect(visible.items.map((s: { id: string }) => s.id)).not.toContain(notes.id);
    expect(visible.count).toBe(visible.items.length);
    await call(null, 'PATCH', `/v1/spaces/${notes.id}/permissions/users/${other.id}`, { role: 'read' }, 204);
    expect((await call(other, 'GET', `/v1/spaces/${notes.id}`)).permissions).toMatchObject({ view: true, edit: false });

    // Removing grants: 205, then 204.
    expect((await folio.request('DELETE', `/v1/spaces/${docs.id}/permissions/teams/${team.id}`)).status).toBe(205);
    expect((await folio.request('DELETE', `/v1/spaces/${docs.id}/permissions/teams/${team.id}`)).status).toBe(204);
    expect((await folio.request('POST', `/v1/spaces/${docs.id}/change-requests`, { subject: 'x' }, { authorization: `Bearer ${reader.token}` })).status).toBe(
      403,
    );
    await call(null, 'PUT', `/v1/orgs/${org()}/teams/${team.id}/members`, { add: ['otto@people.test'], remove: [reader.id] }, 204);
    expect(
      (await call(null, 'GET', `/v1/orgs/${org()}/teams/${team.id}/members`)).items.map((m: { organization: { id: string } }) => m.organization.id),
    ).toEqual([other.id]);
    await call(null, 'PUT', `/v1/orgs/${org()}/teams/${team.id}/members/${reader.id}`, { role: 'owner' }, 204);
    expect((await call(reader, 'GET', `/v1/orgs/${org()}`)).permissions).toMatchObject({ ownTeam: true, admin: false, listMembers: true });
    expect((await folio.request('DELETE', `/v1/orgs/${org()}/teams/${team.id}/members/${reader.id}`)).status).toBe(205);
    expect((await call(null, 'GET', `/v1/orgs/${org()}/teams?title=edit`)).items.map((t: { id: string }) => t.id)).toEqual([team.id]);
    expect((await folio.request('DELETE', `/v1/orgs/${org()}/teams/${team.id}`)).status).toBe(205);
    expect((await folio.request('DELETE', `/v1/orgs/${org()}/teams/${team.id}`)).status).toBe(204);
  });

  it('a creator administers the space they create; guests see only what they were given', async () => {
    const creator = await person('Cora', 'create');
    const made = await call(creator, 'POST', `/v1/orgs/${org()}/spaces`, { title: 'Cora’s' }, 201);
    expect(made.permissions).toMatchObject({ admin: true, edit: true, merge: true });
    expect((await call(creator, 'PATCH', `/v1/spaces/${made.id}`, { title: 'Renamed' })).title).toBe('Renamed');
    const guest = await person('Gus', null);
    expect((await call(guest, 'GET', `/v1/orgs/${org()}/spaces`)).items).toEqual([]);
    expect((await folio.request('GET', `/v1/spaces/${made.id}`, undefined, { authorization: `Bearer ${guest.token}` })).status).toBe(404);
    await call(creator, 'POST', `/v1/spaces/${made.id}/permissions`, { role: 'comment', users: [guest.id] }, 204);
    expect((await call(guest, 'GET', `/v1/orgs/${org()}/spaces`)).items.map((s: { id: string }) => s.id)).toEqual([made.id]);
    expect((await call(guest, 'GET', `/v1/spaces/${made.id}`)).permissions).toMatchObject({ view: true, comment: true, edit: false });
    expect((await folio.request('GET', `/v1/orgs/${org()}/members`, undefined, { authorization: `Bearer ${guest.token}` })).status).toBe(403);
  });
});

describe('the audit trail', () => {
  it('records role and permission changes with who made them; only admins read it', async () => {
    const admin = await person('Audra', 'admin');
    const subject = await person('Sam', 'read');
    await call(admin, 'PATCH', `/v1/orgs/${org()}/members/${subject.id}`, { role: 'comment' });
    const space = await call(admin, 'POST', `/v1/orgs/${org()}/spaces`, { title: 'Audited' }, 201);
    await call(admin, 'PATCH', `/v1/spaces/${space.id}/permissions/users/${subject.id}`, { role: 'edit' }, 204);
    const log = await call(admin, 'GET', `/v1/orgs/${org()}/audit?limit=1000`);
    expect(log.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'member.role',
          actor: expect.objectContaining({ user: admin.id, via: 'api' }),
          target: { user: subject.id },
          before: { role: 'read' },
          after: { role: 'comment' },
        }),
        expect.objectContaining({
          action: 'permission.set',
          actor: expect.objectContaining({ user: admin.id }),
          target: { space: space.id, user: subject.id },
          after: { role: 'edit' },
        }),
      ]),
    );
    expect((await call(admin, 'GET', `/v1/orgs/${org()}/audit?action=member.role`)).items.every((e: { action: string }) => e.action === 'member.role')).toBe(
      true,
    );
    const denied = await folio.request('GET', `/v1/orgs/${org()}/audit`, undefined, { authorization: `Bearer ${subject.token}` });
    expect(denied.status).toBe(403);
  });
});

/** A primary revision with one page, so that change requests can be made. */
async function seedContent(spaceId: string): Promise<void> {
  const space = (await folio.store.spaces.get(spaceId))!;
  const { id } = await folio.store.revisions.create({
    spaceId,
    parents: space.revisionId ? [space.revisionId] : [],
    type: 'edits',
    pages: [{ id: 'pintro', kind: 'document', title: 'Intro', slug: 'intro', path: 'intro', body: new TextEncoder().encode('# Intro\n\nHello.\n') }],
    files: [],
  });
  await folio.store.spaces.setPrimaryRevision(spaceId, id);
}
