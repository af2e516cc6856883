/**
 * The people members of the store (migration 018_people), run against PGlite and a real PostgreSQL server: users,
 * members (removal revokes the member's tokens and drops their teams and grants, in one transaction), teams, grants,
 * invites, the SAML request ids and assertion ids (each taken once, even concurrently), and the audit trail every
 * change writes in the same transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../src/errors.js';
import type { Store } from '../../src/store/index.js';

let n = 0;
const uid = (p: string) => `${p}${Date.now().toString(36)}${(n++).toString(36)}`;
const cli = { via: 'cli' as const };

export function definePeopleSuite(name: string, open: () => Promise<Store>): void {
  describe(name, () => {
    let store: Store;
    let org: string;
    beforeAll(async () => {
      store = await open();
      org = (await store.orgs.create({ id: uid('people'), title: 'People' })).id;
    });
    afterAll(async () => {
      await store?.close();
    });

    it('users: e-mails unique whatever their case, validated fields', async () => {
      const email = `${uid('u')}@Example.com`;
      const user = await store.users.create({ displayName: 'Una', email });
      expect((await store.users.byEmail(email.toLowerCase()))?.id).toBe(user.id);
      await expect(store.users.create({ displayName: 'Twin', email: email.toUpperCase() })).rejects.toBeInstanceOf(ConflictError);
      await expect(store.users.create({ displayName: '' })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.users.create({ displayName: 'X', photoUrl: 'javascript:alert(1)' })).rejects.toBeInstanceOf(ValidationError);
      expect((await store.users.update(user.id, { displayName: 'Una B.' })).displayName).toBe('Una B.');
      await expect(store.users.update('nobody', { displayName: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('members: add once, filter, search, sort; removal revokes tokens, drops teams and grants, audited', async () => {
      const a = await store.users.create({ displayName: 'Alma Zed' });
      const b = await store.users.create({ displayName: 'Bert Young', email: `${uid('b')}@x.test` });
      expect((await store.members.add(org, a.id, { role: 'edit' }, cli)).added).toBe(true);
      const again = await store.members.add(org, a.id, { role: 'admin' }, cli);
      expect([again.added, again.member.role]).toEqual([false, 'edit']);
      await store.members.add(org, b.id, { role: null }, cli);
      expect((await store.members.list(org, { limit: 10, role: 'guest' })).items.map((m) => m.userId)).toEqual([b.id]);
      expect((await store.members.list(org, { limit: 10, search: 'zed' })).items.map((m) => m.userId)).toEqual([a.id]);
      const byName = await store.members.list(org, { limit: 1, sort: 'name', order: 'asc' });
      expect([byName.items[0]!.userId, byName.total]).toEqual([a.id, 2]);
      expect((await store.members.list(org, { limit: 1, sort: 'name', order: 'asc', page: byName.next!.page })).items[0]!.userId).toBe(b.id);
      await expect(store.members.add(org, 'no-user', { role: 'read' }, cli)).rejects.toBeInstanceOf(NotFoundError);

      const { token } = await store.tokens.create(org, { userId: a.id });
      expect(await store.tokens.verify(token)).toMatchObject({ userId: a.id, orgId: org });
      await expect(store.tokens.create(org, { userId: 'stranger' })).rejects.toBeInstanceOf(NotFoundError);
      const team = await store.teams.create(org, { title: 'T', members: [a.id] }, cli);
      const space = await store.spaces.create(org, { title: 'S' });
      await store.permissions.set(org, { kind: 'space', id: space.id }, [{ kind: 'user', id: a.id }], 'admin', cli);
      expect(await store.members.remove(org, a.id, { ...cli, userId: b.id })).toBe(true);
      expect(await store.tokens.verify(token)).toBeNull();
      expect((await store.teams.get(org, team.id))?.members).toBe(0);
      expect(await store.permissions.forPrincipals([{ kind: 'space', id: space.id }], a.id, [])).toEqual([]);
      expect(await store.members.remove(org, a.id, cli)).toBe(false);
      const [removal] = (await store.audit.list(org, { limit: 10, action: 'member.remove' })).items;
      expect(removal).toMatchObject({ actor: { userId: b.id, via: 'cli' }, target: { user: a.id }, after: { tokensRevoked: 1, grantsRemoved: 1 } });
    });

    it('teams and grants: titles 1..64, members of the organization only, most recent grant per principal, audited', async () => {
      const u = await store.users.create({ displayName: 'Grant Ee' });
      await store.members.add(org, u.id, { role: 'read' }, cli);
      await expect(store.teams.create(org, { title: 'x'.repeat(65) }, cli)).rejects.toBeInstanceOf(ValidationError);
      await expect(store.teams.create(org, { title: 'Outsiders', members: ['nobody'] }, cli)).rejects.toBeInstanceOf(ValidationError);
      const team = await store.teams.create(org, { title: 'Docs team' }, cli);
      expect(await store.teams.updateMembers(org, team.id, { add: [{ userId: u.id, role: 'owner' }] }, cli)).toEqual({ added: 1, removed: 0 });
      expect(await store.teams.updateMembers(org, team.id, { add: [{ userId: u.id, role: 'owner' }] }, cli)).toEqual({ added: 0, removed: 0 });
      expect((await store.teams.list(org, { limit: 10, owner: u.id })).items.map((t) => t.id)).toEqual([team.id]);
      const space = await store.spaces.create(org, { title: 'Granted' });
      const ref = { kind: 'space' as const, id: space.id };
      await store.permissions.set(org, ref, [{ kind: 'team', id: team.id }], 'edit', cli);
      await store.permissions.set(org, ref, [{ kind: 'team', id: team.id }], 'review', cli);
      expect((await store.permissions.list(ref, 'team', { limit: 10 })).items.map((g) => g.role)).toEqual(['review']);
      expect((await store.teams.get(org, team.id))?.spaces).toBe(1);
      await expect(store.permissions.set(org, ref, [{ kind: 'team', id: 'no-team' }], 'read', cli)).rejects.toBeInstanceOf(NotFoundError);
      const collection = { kind: 'collection' as const, id: (await store.collections.create(org, { title: 'Col 1' })).id };
      await store.permissions.set(org, collection, [{ kind: 'user', id: u.id }], 'create', cli);
      const grants = await store.permissions.forPrincipals([ref, collection], u.id, [team.id]);
      expect(grants.map((g) => `${g.content.kind}:${g.principal.kind}:${g.role}`).sort()).toEqual(['collection:user:create', 'space:team:review']);
      await store.permissions.set(org, ref, [{ kind: 'team', id: team.id }], null, cli);
      expect(await store.permissions.remove(org, collection, { kind: 'user', id: u.id }, cli)).toBe(true);
      expect(await store.permissions.remove(org, collection, { kind: 'user', id: u.id }, cli)).toBe(false);
      const actions = (await store.audit.list(org, { limit: 100 })).items.filter((e) => e.action.startsWith('permission.')).map((e) => e.after ?? e.before);
      // Newest first: the collection grant removed, the team's grant removed (null), the collection grant, the team's review.
      expect(actions.slice(0, 4)).toEqual([{ role: 'create' }, { role: null }, { role: 'create' }, { role: 'review' }]);
      expect(await store.teams.delete(org, team.id, cli)).toBe(true);
      expect(await store.teams.delete(org, team.id, cli)).toBe(false);
    });

    it('collections: crossing moves at once never make a cycle; a grant goes with its collection; comments of 20 writers at once are all kept', async () => {
      const a = await store.collections.create(org, { title: 'A' });
      const b = await store.collections.create(org, { title: 'B' });
      // A into B and B into A at the same time: one wins, the other is a cycle (409).
      const moves = await Promise.allSettled([store.collections.move(a.id, b.id), store.collections.move(b.id, a.id)]);
      expect(moves.map((m) => m.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect((moves.find((m) => m.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
      const [pa, pb] = [(await store.collections.get(a.id))!.parent, (await store.collections.get(b.id))!.parent];
      expect(pa === b.id && pb === b.id).toBe(false);
      expect([pa, pb].filter((p) => p !== null)).toHaveLength(1);
      const u = await store.users.create({ displayName: 'Granted' });
      await store.members.add(org, u.id, { role: 'read' }, cli);
      await expect(
        store.permissions.set(org, { kind: 'collection', id: 'no-such-collection' }, [{ kind: 'user', id: u.id }], 'edit', cli),
      ).rejects.toBeInstanceOf(NotFoundError);
      const lone = await store.collections.create(org, { title: 'Lone' });
      await store.permissions.set(org, { kind: 'collection', id: lone.id }, [{ kind: 'user', id: u.id }], 'edit', cli);
      expect(await store.collections.delete(lone.id)).toBe(true);
      expect(await store.permissions.forPrincipals([{ kind: 'collection', id: lone.id }], u.id, [])).toEqual([]);
      const space = await store.spaces.create(org, { title: 'Busy' });
      const { id: revisionId } = await store.revisions.create({ spaceId: space.id, parents: [], type: 'edits', pages: [], files: [] });
      const scope = { spaceId: space.id, changeRequestId: null };
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.comments.create({ ...scope, organizationId: org, postedBy: `writer-${i}`, body: `Note ${i}`, revisionId })),
      );
      const listed = await store.comments.list(scope, { limit: 1000 });
      expect(listed.total).toBe(20);
      expect(new Set(listed.items.map((c) => c.postedBy)).size).toBe(20);
    });

    it('invites: unguessable ids, organization-only listing, role updates', async () => {
      const space = await store.spaces.create(org, { title: 'Invited' });
      const toOrg = await store.invites.create(org, { target: { kind: 'organization' }, role: 'comment' }, cli);
      const toSpace = await store.invites.create(org, { target: { kind: 'space', spaceId: space.id }, role: 'edit' }, cli);
      expect(toOrg.id).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
      expect((await store.invites.list(org, { limit: 10, organizationOnly: true })).items.map((i) => i.id)).toEqual([toOrg.id]);
      expect((await store.invites.list(org, { limit: 10 })).total).toBe(2);
      expect((await store.invites.update(org, toSpace.id, 'read', cli)).role).toBe('read');
      expect(await store.invites.get('other-org', toOrg.id)).toBeNull();
      expect(await store.invites.delete(org, toOrg.id, cli)).toBe(true);
    });

    it('SAML: request ids and assertion ids are each taken once, even concurrently; certificates stay out of the audit', async () => {
      const provider = await store.saml.create(org, { label: 'IdP', certificate: 'MIIsecretish', defaultRole: 'read' }, cli);
      await store.saml.saveRequest(provider.id, '_req1');
      const takes = await Promise.all([1, 2, 3, 4].map(() => store.saml.takeRequest(provider.id, '_req1', 60_000)));
      expect(takes.filter(Boolean)).toHaveLength(1);
      await store.saml.saveRequest(provider.id, '_req2');
      expect(await store.saml.takeRequest(provider.id, '_req2', 0)).toBe(false);
      const until = new Date(Date.now() + 60_000);
      const consumed = await Promise.all([1, 2, 3].map(() => store.saml.consumeAssertion(provider.id, '_a1', until)));
      expect(consumed.filter(Boolean)).toHaveLength(1);
      await expect(store.saml.create(org, { label: 'x'.repeat(31) }, cli)).rejects.toBeInstanceOf(ValidationError);
      await expect(store.saml.update(org, provider.id, { defaultTeamId: 'no-team' }, cli)).rejects.toBeInstanceOf(NotFoundError);
      const created = (await store.audit.list(org, { limit: 10, action: 'saml.create' })).items[0]!;
      expect(JSON.stringify(created)).not.toContain('MIIsecretish');
      expect(created.after).toMatchObject({ certificate: true, defaultRole: 'read' });
    });
  });
}
