/**
 * The content-store suite, run against every backend (PGlite in memory, PGlite in a directory, a real
 * PostgreSQL server, a pglite-server through pg). Each backend file calls `defineStoreSuite`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../src/errors.js';
import { sha256Hex } from '../../src/store/hash.js';
import type { PageInput, Store } from '../../src/store/index.js';
import { rawSql } from '../../src/store/raw-sql.js';

export interface SuiteOptions {
  open(): Promise<Store>;
  /** Directory of the directory blob store, when the suite uses one. */
  blobDir?: string;
  /** Whether the content backend (directory, bucket) holds the blob's bytes, when the suite uses one. */
  contentExists?: (hash: string) => Promise<boolean>;
}

/** The check of `options.contentExists`, or of a file under `options.blobDir`; undefined for database blobs. */
function contentCheck(options: SuiteOptions): ((hash: string) => Promise<boolean>) | undefined {
  if (options.contentExists) return options.contentExists;
  const dir = options.blobDir;
  return dir ? async (h) => existsSync(path.join(dir, h.slice(0, 2), h.slice(2))) : undefined;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
let counter = 0;
const uid = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function count(store: Store, table: string, where = 'TRUE', params: (string | number)[] = []): Promise<number> {
  const rows = await rawSql(store).query<{ n: number | string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, params);
  return Number(rows[0]!.n);
}

function manyPages(n: number, tag: string): PageInput[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    kind: 'document' as const,
    title: `Page ${i}`,
    slug: `page-${i}`,
    path: `page-${i}`,
    data: { description: `d${i}` },
    body: enc.encode(`# Page ${i}\n\n${tag} body ${i}\n`),
  }));
}

/** What the suite wrote, for a later check that it persisted (filled as the tests run). */
export interface SuiteFacts {
  orgId?: string;
  token?: string;
  spaceId?: string;
  revisionId?: string;
}

export function defineStoreSuite(name: string, options: SuiteOptions): SuiteFacts {
  const facts: SuiteFacts = {};
  describe(name, () => {
    let store: Store;
    let orgId: string;

    beforeAll(async () => {
      store = await options.open();
      orgId = (await store.orgs.create({ title: 'Suite org' })).id;
    });
    afterAll(async () => {
      await store?.close();
    });

    it('applies migrations once and records them', async () => {
      expect(await store.migrate()).toEqual({ applied: [] });
      const [a, b] = await Promise.all([store.migrate(), store.migrate()]);
      expect([...a.applied, ...b.applied]).toEqual([]);
      const rows = await rawSql(store).query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(rows.map((r) => r.id)).toContain('001_core');
      await store.health();
    });

    it('creates organizations and rejects a taken id or a bad one', async () => {
      const id = uid('org');
      const org = await store.orgs.create({ id, title: 'Acme' });
      expect(org).toMatchObject({ id, title: 'Acme' });
      expect(org.createdAt).toBeInstanceOf(Date);
      await expect(store.orgs.create({ id, title: 'Again' })).rejects.toBeInstanceOf(ConflictError);
      expect((await store.orgs.ensure({ id, title: 'Other' })).title).toBe('Acme');
      expect(await store.orgs.get('nope-' + id)).toBeNull();
      await expect(store.orgs.create({ id: 'bad id/../', title: 'x' })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.orgs.create({ title: '' })).rejects.toBeInstanceOf(ValidationError);
    });

    it('stores only the sha256 of tokens and verifies them', async () => {
      const { id, token } = await store.tokens.create(orgId, { label: 'ci' });
      Object.assign(facts, { orgId, token });
      expect(token).toMatch(/^folio_[A-Za-z0-9_-]{43}$/);
      expect(await store.tokens.verify(token)).toEqual({ orgId, tokenId: id, scope: 'write', userId: null });
      expect(await store.tokens.verify(token + 'x')).toBeNull();
      expect(await store.tokens.verify('')).toBeNull();
      const dump = await rawSql(store).query<{ t: string }>('SELECT row_to_json(a)::text AS t FROM api_tokens a');
      expect(dump.length).toBeGreaterThan(0);
      for (const row of dump) expect(row.t).not.toContain(token);
      const stored = await rawSql(store).query<{ token_sha256: string }>('SELECT token_sha256 FROM api_tokens WHERE id = $1', [id]);
      expect(stored[0]!.token_sha256).toBe(sha256Hex(token));

      const explicit = `explicit-token-${uid('')}`;
      const first = await store.tokens.create(orgId, { token: explicit });
      const second = await store.tokens.create(orgId, { token: explicit });
      expect(second).toEqual(first);
      const other = await store.orgs.create({ title: 'Other org' });
      await expect(store.tokens.create(other.id, { token: explicit })).rejects.toBeInstanceOf(ConflictError);
      await expect(store.tokens.create('no-such-org', {})).rejects.toBeInstanceOf(NotFoundError);
      expect(await store.tokens.count(orgId)).toBe(2);
      await store.tokens.revoke(orgId, first.id);
      expect(await store.tokens.verify(explicit)).toBeNull();
      // A revoked explicit token (FOLIO_BOOTSTRAP_TOKEN) is never revived.
      await expect(store.tokens.create(orgId, { token: explicit })).rejects.toBeInstanceOf(ConflictError);
      expect(await store.tokens.count(orgId)).toBe(1);
    });

    it('lists, scopes, expires and revokes tokens per organization, never caching a verification', async () => {
      const org = await store.orgs.create({ title: 'Token owner' });
      const other = await store.orgs.create({ title: 'Token neighbour' });
      const writer = await store.tokens.create(org.id, { label: 'deploy' });
      const reader = await store.tokens.create(org.id, { label: 'docs-bot', scope: 'read' });
      const expiresAt = new Date(Date.now() + 30 * 86_400_000);
      const expiring = await store.tokens.create(org.id, { scope: 'read', expiresAt });
      const neighbour = await store.tokens.create(other.id);
      expect(writer.record).toMatchObject({
        id: writer.id,
        organizationId: org.id,
        label: 'deploy',
        scope: 'write',
        expiresAt: null,
        revokedAt: null,
        lastUsedAt: null,
      });
      expect(expiring.record.expiresAt?.getTime()).toBe(expiresAt.getTime());

      expect(await store.tokens.verify(reader.token)).toEqual({ orgId: org.id, tokenId: reader.id, scope: 'read', userId: null });
      expect(await store.tokens.verify(expiring.token)).toEqual({ orgId: org.id, tokenId: expiring.id, scope: 'read', userId: null });
      const listed = await store.tokens.list(org.id);
      // Oldest first (tokens created within the database clock's resolution, a millisecond on PGlite, tie in any order).
      const created = new Map(listed.map((t) => [t.id, t.createdAt.getTime()]));
      expect(created.get(writer.id)!).toBeLessThanOrEqual(created.get(reader.id)!);
      expect(created.get(reader.id)!).toBeLessThanOrEqual(created.get(expiring.id)!);
      for (let i = 1; i < listed.length; i++) expect(listed[i]!.createdAt.getTime()).toBeGreaterThanOrEqual(listed[i - 1]!.createdAt.getTime());
      const byId = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
      expect(listed.map((t) => [t.id, t.label, t.scope]).sort(byId)).toEqual(
        [
          [writer.id, 'deploy', 'write'],
          [reader.id, 'docs-bot', 'read'],
          [expiring.id, null, 'read'],
        ].sort(byId),
      );
      // Verification records the last use (the writer was never used).
      expect(listed.find((t) => t.id === reader.id)!.lastUsedAt).toBeInstanceOf(Date);
      expect(listed.find((t) => t.id === writer.id)!.lastUsedAt).toBeNull();
      // A listing never carries the secret or its hash.
      expect(JSON.stringify(listed)).not.toContain(writer.token);
      expect(JSON.stringify(listed)).not.toContain(sha256Hex(writer.token));

      // Expired: refused, still listed, no longer counted.
      await rawSql(store).query("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [expiring.id]);
      expect(await store.tokens.verify(expiring.token)).toBeNull();
      expect(await store.tokens.count(org.id)).toBe(2);

      // Revoked: refused by the very next verification; idempotent; scoped to the organization.
      expect(await store.tokens.verify(writer.token)).not.toBeNull();
      const revoked = await store.tokens.revoke(org.id, writer.id);
      expect(revoked.revokedAt).toBeInstanceOf(Date);
      expect(await store.tokens.verify(writer.token)).toBeNull();
      expect((await store.tokens.revoke(org.id, writer.id)).revokedAt?.getTime()).toBe(revoked.revokedAt!.getTime());
      await expect(store.tokens.revoke(org.id, neighbour.id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(store.tokens.revoke(org.id, 'no-such-token')).rejects.toBeInstanceOf(NotFoundError);
      expect(await store.tokens.get(org.id, neighbour.id)).toBeNull();
      expect(await store.tokens.verify(neighbour.token)).toEqual({ orgId: other.id, tokenId: neighbour.id, scope: 'write', userId: null });
      expect((await store.tokens.list(other.id)).map((t) => t.id)).toEqual([neighbour.id]);

      await expect(store.tokens.create(org.id, { scope: 'admin' as never })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.tokens.create(org.id, { expiresAt: new Date(Date.now() - 1000) })).rejects.toBeInstanceOf(ValidationError);
    });

    it('paginates spaces with opaque cursors and hides deleted ones', async () => {
      const org = await store.orgs.create({ title: 'Paging' });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await store.spaces.create(org.id, { title: `S${i}` })).id);
      await store.spaces.markDeleted(ids[2]!);
      const seen: string[] = [];
      let page: string | undefined;
      let pages = 0;
      do {
        const result = await store.spaces.list(org.id, { limit: 2, page });
        // Every page counts the whole list (deleted spaces left out), not its own items.
        expect(result.total).toBe(4);
        seen.push(...result.items.map((s) => s.id));
        page = result.next?.page;
        pages++;
      } while (page);
      expect(seen).toEqual([ids[0], ids[1], ids[3], ids[4]]);
      expect(pages).toBe(2);
      const all = await store.spaces.list(org.id, { limit: 10, includeDeleted: true });
      expect(all.items.map((s) => s.id)).toEqual(ids);
      expect(all.total).toBe(5);
      expect(all.next).toBeUndefined();
      await expect(store.spaces.list(org.id, { limit: 2, page: 'garbage!' })).rejects.toBeInstanceOf(ValidationError);
      const orgPage = await store.orgs.list({ limit: 1 });
      await expect(store.spaces.list(org.id, { limit: 2, page: orgPage.next!.page })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.spaces.list(org.id, { limit: 0 })).rejects.toBeInstanceOf(ValidationError);
      // organizations: walking every page visits each once
      const orgIds: string[] = [];
      let cursor: string | undefined;
      do {
        const r = await store.orgs.list({ limit: 3, page: cursor });
        orgIds.push(...r.items.map((o) => o.id));
        cursor = r.next?.page;
      } while (cursor);
      expect(new Set(orgIds).size).toBe(orgIds.length);
      expect(orgIds).toContain(org.id);
    });

    it('creates and updates spaces with validated fields', async () => {
      const space = await store.spaces.create(orgId, { title: 'Docs', emoji: '📘', language: 'en', editMode: 'live', visibility: 'private' });
      expect(space).toMatchObject({
        organizationId: orgId,
        title: 'Docs',
        emoji: '📘',
        language: 'en',
        editMode: 'live',
        visibility: 'private',
        revisionId: null,
        deletedAt: null,
        defaultLevel: 'inherit',
      });
      const updated = await store.spaces.update(space.id, { title: 'Docs 2', editMode: 'locked' });
      expect(updated).toMatchObject({ title: 'Docs 2', editMode: 'locked', emoji: '📘' });
      expect((await store.spaces.update(space.id, { defaultLevel: 'review' })).defaultLevel).toBe('review');
      expect((await store.spaces.get(space.id))?.defaultLevel).toBe('review');
      expect((await store.spaces.update(space.id, { defaultLevel: null })).defaultLevel).toBeNull();
      await expect(store.spaces.update(space.id, { defaultLevel: 'owner' as never })).rejects.toBeInstanceOf(ValidationError);
      expect((await store.spaces.get(space.id))?.defaultLevel).toBeNull();
      await expect(store.spaces.update(space.id, { visibility: 'everyone' as never })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.spaces.create(orgId, { id: space.id })).rejects.toBeInstanceOf(ConflictError);
      await expect(store.spaces.create('no-such-org')).rejects.toBeInstanceOf(NotFoundError);
      await expect(store.spaces.update('missing', { title: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('stores a page tree, files and bodies, and reads them back', async () => {
      const space = await store.spaces.create(orgId, { title: 'Tree' });
      const image = enc.encode('PNG-bytes-' + uid(''));
      const { id } = await store.revisions.create({
        spaceId: space.id,
        parents: [],
        type: 'git-import',
        git: { oid: 'a'.repeat(40), message: 'import', ref: 'refs/heads/main', url: 'https://example.com/r.git', createdByService: false },
        data: { redirects: { '/old': '/new' } },
        pages: [
          { id: 'intro', kind: 'document', title: 'Intro', slug: 'intro', path: 'intro', data: { emoji: '👋' }, body: enc.encode('# Intro') },
          {
            id: 'guide',
            kind: 'group',
            title: 'Guide',
            data: {},
            children: [
              { id: 'install', kind: 'document', title: 'Install', slug: 'install', path: 'guide/install', body: enc.encode('# Install') },
              { id: 'ext', kind: 'link', title: 'External', data: { target: { kind: 'url', url: 'https://example.com' } } },
            ],
          },
        ],
        files: [
          {
            id: 'img1',
            name: 'logo.png',
            contentType: 'image/png',
            size: image.byteLength,
            git: { oid: 'b'.repeat(40), path: '.gitbook/assets/logo.png' },
            bytes: image,
          },
        ],
      });
      await store.spaces.setPrimaryRevision(space.id, id, { expected: null });
      Object.assign(facts, { spaceId: space.id, revisionId: id });
      const revision = await store.revisions.get(id);
      expect(revision).toMatchObject({
        spaceId: space.id,
        type: 'git-import',
        parents: [],
        pageCount: 4,
        fileCount: 1,
        data: { redirects: { '/old': '/new' } },
      });
      expect(revision!.git).toMatchObject({ oid: 'a'.repeat(40), ref: 'refs/heads/main' });
      const tree = await store.revisions.pages(id);
      expect(tree.map((p) => p.id)).toEqual(['intro', 'guide']);
      expect(tree[1]!.children.map((p) => [p.id, p.kind, p.position, p.parentId])).toEqual([
        ['install', 'document', 0, 'guide'],
        ['ext', 'link', 1, 'guide'],
      ]);
      expect(tree[0]!.data).toEqual({ emoji: '👋' });
      const install = await store.revisions.page(id, 'install');
      expect(install).toMatchObject({ title: 'Install', path: 'guide/install', bodyHash: sha256Hex(enc.encode('# Install')) });
      expect(dec.decode((await store.revisions.pageBody(id, 'install'))!)).toBe('# Install');
      expect(await store.revisions.pageBody(id, 'ext')).toBeNull();
      expect(await store.revisions.page(id, 'missing')).toBeNull();
      const files = await store.revisions.files(id);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({
        id: 'img1',
        name: 'logo.png',
        size: image.byteLength,
        contentType: 'image/png',
        git: { oid: 'b'.repeat(40), path: '.gitbook/assets/logo.png' },
      });
      expect(await store.revisions.fileBytes(id, 'img1')).toEqual(image);
      expect(await store.revisions.file(id, 'nope')).toBeNull();
      await expect(store.revisions.pages('no-such-revision')).rejects.toBeInstanceOf(NotFoundError);
      const exists = contentCheck(options);
      if (exists) {
        const hash = sha256Hex(image);
        expect(await exists(hash)).toBe(true);
        const rows = await rawSql(store).query<{ bytes: unknown }>('SELECT bytes FROM blobs WHERE hash = $1', [hash]);
        expect(rows[0]!.bytes).toBeNull();
      }
    });

    it('rejects bad revision input with typed errors', async () => {
      const space = await store.spaces.create(orgId, {});
      const base = { spaceId: space.id, parents: [], type: 'edits', files: [] };
      await expect(
        store.revisions.create({
          ...base,
          pages: [
            { id: 'a', kind: 'document', title: 'A' },
            { id: 'a', kind: 'document', title: 'B' },
          ],
        }),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(store.revisions.create({ ...base, pages: [{ id: 'a', kind: 'weird' as never, title: 'A' }] })).rejects.toBeInstanceOf(ValidationError);
      await expect(
        store.revisions.create({ ...base, pages: [{ id: 'a', kind: 'document', title: 'A', body: { hash: 'f'.repeat(64) } }] }),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(store.revisions.create({ ...base, pages: [{ id: 'a', kind: 'document', title: 'A', body: { hash: 'nothex' } }] })).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(store.revisions.create({ ...base, parents: ['no-such-parent'], pages: [] })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.revisions.create({ ...base, spaceId: 'no-such-space', pages: [] })).rejects.toBeInstanceOf(NotFoundError);
      await expect(store.revisions.create({ ...base, pages: [], files: [{ id: 'f', name: 'f', size: 3, bytes: enc.encode('four') }] })).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(store.revisions.create(null as never)).rejects.toBeInstanceOf(ValidationError);
      // A deep tree is not a stack overflow.
      let deep: PageInput = { id: 'leaf', kind: 'document', title: 'leaf' };
      for (let i = 0; i < 5000; i++) deep = { id: `d${i}`, kind: 'group', title: 'g', children: [deep] };
      const { id } = await store.revisions.create({ ...base, pages: [deep] });
      expect((await store.revisions.get(id))!.pageCount).toBe(5001);
      expect(await count(store, 'revisions', 'space_id = $1', [space.id])).toBe(1);
    });

    it('shares blobs across revisions: changing 1 page of 1,000 stores 1 new body', async () => {
      const space = await store.spaces.create(orgId, { title: 'Big' });
      const tag = uid('big');
      const before = await count(store, 'blobs');
      const pages = manyPages(1000, tag);
      const first = await store.revisions.create({ spaceId: space.id, parents: [], type: 'git-import', pages, files: [] });
      expect(await count(store, 'blobs')).toBe(before + 1000);
      expect(await count(store, 'revision_pages', 'revision_id = $1', [first.id])).toBe(1000);
      const changed = pages.map((p, i) => (i === 500 ? { ...p, body: enc.encode(`changed ${tag}`) } : p));
      const second = await store.revisions.create({ spaceId: space.id, parents: [first.id], type: 'edits', pages: changed, files: [] });
      expect(await count(store, 'blobs')).toBe(before + 1001);
      // Referring to stored bodies by hash stores nothing new either.
      const byHash = changed.map((p) => ({ ...p, body: { hash: sha256Hex(p.body as Uint8Array) } }));
      await store.revisions.create({ spaceId: space.id, parents: [second.id], type: 'edits', pages: byHash, files: [] });
      expect(await count(store, 'blobs')).toBe(before + 1001);
      expect(dec.decode((await store.revisions.pageBody(second.id, 'p500'))!)).toBe(`changed ${tag}`);
      expect(dec.decode((await store.revisions.pageBody(second.id, 'p499'))!)).toContain(`${tag} body 499`);
      const tree = await store.revisions.pages(second.id);
      expect(tree).toHaveLength(1000);
      expect(tree[999]!.id).toBe('p999');
      const listed = await store.revisions.listForSpace(space.id, { limit: 2 });
      expect(listed.items.map((r) => r.type)).toEqual(['edits', 'edits']);
      const rest = await store.revisions.listForSpace(space.id, { limit: 2, page: listed.next!.page });
      expect(rest.items.map((r) => r.id)).toEqual([first.id]);
      expect(rest.next).toBeUndefined();
    });

    it('copies fromBase pages and files from a base revision of the same space, at their new places', async () => {
      const space = await store.spaces.create(orgId, { title: 'Base' });
      const tag = uid('base');
      const img = enc.encode(`img ${tag}`);
      const pages = manyPages(5, tag);
      const first = await store.revisions.create({
        spaceId: space.id,
        parents: [],
        type: 'git-import',
        pages,
        files: [
          {
            id: 'f1',
            name: 'a.png',
            path: 'assets/a.png',
            contentType: 'image/png',
            size: img.byteLength,
            git: { oid: 'c'.repeat(40), path: 'assets/a.png' },
            data: { role: 'asset' },
            bytes: img,
          },
        ],
      });
      // p2 changes, p4 moves under p0 (a new place), p1 and p3 are copied; a new page comes first; the file is copied.
      const given = (id: string) => ({ id, kind: 'document' as const, title: 'ignored', data: { ignored: true }, fromBase: true });
      const second = await store.revisions.create({
        spaceId: space.id,
        parents: [first.id],
        type: 'git-import',
        base: first.id,
        pages: [
          { id: 'new', kind: 'document', title: 'New', slug: 'new', body: enc.encode(`new ${tag}`) },
          { ...given('p0'), children: [given('p4')] },
          given('p1'),
          { ...pages[2]!, title: 'Changed' },
          given('p3'),
        ],
        files: [{ id: 'f1', name: 'ignored', size: 0, fromBase: true }],
      });
      expect(await store.revisions.get(second.id)).toMatchObject({ pageCount: 6, fileCount: 1 });
      const tree = await store.revisions.pages(second.id);
      expect(tree.map((p) => [p.id, p.title, p.position, p.parentId])).toEqual([
        ['new', 'New', 0, null],
        ['p0', 'Page 0', 1, null],
        ['p1', 'Page 1', 2, null],
        ['p2', 'Changed', 3, null],
        ['p3', 'Page 3', 4, null],
      ]);
      expect(tree[1]!.children.map((p) => [p.id, p.title, p.slug, p.path, p.data, p.position, p.parentId])).toEqual([
        ['p4', 'Page 4', 'page-4', 'page-4', { description: 'd4' }, 0, 'p0'],
      ]);
      expect(dec.decode((await store.revisions.pageBody(second.id, 'p4'))!)).toContain(`${tag} body 4`);
      expect(await store.revisions.files(second.id)).toEqual(await store.revisions.files(first.id));
      // The base revision is as it was (revisions are immutable).
      expect((await store.revisions.pages(first.id)).map((p) => [p.id, p.title, p.position, p.children.length])).toEqual(
        pages.map((p, i) => [p.id, p.title, i, 0]),
      );
      // A fromBase id the base does not hold, a base of another space, or fromBase without a base: refused, nothing stored.
      const before = await count(store, 'revisions', 'space_id = $1', [space.id]);
      const bad = { spaceId: space.id, parents: [second.id], type: 'edits', files: [] };
      await expect(store.revisions.create({ ...bad, base: first.id, pages: [given('p1'), given('new')] })).rejects.toBeInstanceOf(ValidationError);
      await expect(
        store.revisions.create({ ...bad, base: first.id, pages: [], files: [{ id: 'f2', name: 'x', size: 0, fromBase: true }] }),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(store.revisions.create({ ...bad, pages: [given('p1')] })).rejects.toBeInstanceOf(ValidationError);
      const other = await store.spaces.create(orgId, { title: 'Other' });
      const foreign = await store.revisions.create({ spaceId: other.id, parents: [], type: 'edits', pages: manyPages(2, uid('other')), files: [] });
      await expect(store.revisions.create({ ...bad, base: foreign.id, pages: [given('p1')] })).rejects.toBeInstanceOf(ValidationError);
      expect(await count(store, 'revisions', 'space_id = $1', [space.id])).toBe(before);
    });

    it('creates one revision per idempotency key, even concurrently', async () => {
      const space = await store.spaces.create(orgId, {});
      const input = { spaceId: space.id, parents: [], type: 'edits', pages: manyPages(20, uid('idem')), files: [], idempotencyKey: 'import/req-1' };
      const [a, b] = await Promise.all([store.revisions.create(input), store.revisions.create(input)]);
      expect(a.id).toBe(b.id);
      expect([a.created, b.created].sort()).toEqual([false, true]);
      const c = await store.revisions.create(input);
      expect(c).toEqual({ id: a.id, created: false });
      expect(await count(store, 'revisions', 'space_id = $1', [space.id])).toBe(1);
      const other = await store.revisions.create({ ...input, idempotencyKey: 'import/req-2' });
      expect(other.created).toBe(true);
      expect(await count(store, 'revisions', 'space_id = $1', [space.id])).toBe(2);
    });

    it('sets the primary revision with compare-and-set', async () => {
      const space = await store.spaces.create(orgId, {});
      const r1 = await store.revisions.create({ spaceId: space.id, parents: [], type: 'edits', pages: [], files: [] });
      const r2 = await store.revisions.create({ spaceId: space.id, parents: [r1.id], type: 'edits', pages: [], files: [] });
      expect((await store.spaces.setPrimaryRevision(space.id, r1.id, { expected: null })).revisionId).toBe(r1.id);
      await expect(store.spaces.setPrimaryRevision(space.id, r2.id, { expected: null })).rejects.toBeInstanceOf(ConflictError);
      expect((await store.spaces.get(space.id))!.revisionId).toBe(r1.id);
      expect((await store.spaces.setPrimaryRevision(space.id, r2.id, { expected: r1.id })).revisionId).toBe(r2.id);
      // Only one of two racing compare-and-sets from the same expected revision wins.
      const r3 = await store.revisions.create({ spaceId: space.id, parents: [r2.id], type: 'edits', pages: [], files: [] });
      const r4 = await store.revisions.create({ spaceId: space.id, parents: [r2.id], type: 'edits', pages: [], files: [] });
      const results = await Promise.allSettled([
        store.spaces.setPrimaryRevision(space.id, r3.id, { expected: r2.id }),
        store.spaces.setPrimaryRevision(space.id, r4.id, { expected: r2.id }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toBeInstanceOf(ConflictError);
      const otherSpace = await store.spaces.create(orgId, {});
      await expect(store.spaces.setPrimaryRevision(otherSpace.id, r1.id)).rejects.toBeInstanceOf(ValidationError);
      await expect(store.spaces.setPrimaryRevision(space.id, 'nope')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('soft-deletes, restores and purges, removing only unshared blobs', async () => {
      const tag = uid('purge');
      const shared = enc.encode(`shared ${tag}`);
      const own = enc.encode(`own ${tag}`);
      const ownFile = enc.encode(`own file ${tag}`);
      const keep = await store.spaces.create(orgId, { title: 'Keep' });
      await store.revisions.create({
        spaceId: keep.id,
        parents: [],
        type: 'edits',
        pages: [{ id: 'a', kind: 'document', title: 'A', body: shared }],
        files: [],
      });
      const doomed = await store.spaces.create(orgId, { title: 'Doomed' });
      const rev = await store.revisions.create({
        spaceId: doomed.id,
        parents: [],
        type: 'edits',
        pages: [
          { id: 'a', kind: 'document', title: 'A', body: shared },
          { id: 'b', kind: 'document', title: 'B', body: own },
        ],
        files: [{ id: 'f', name: 'f.bin', size: ownFile.byteLength, bytes: ownFile }],
      });
      await store.spaces.setPrimaryRevision(doomed.id, rev.id, { expected: null });
      await store.gitSync.update(doomed.id, { repo: { url: 'https://example.com/x.git', ref: 'main' } });

      const first = await store.spaces.markDeleted(doomed.id);
      expect(first.deletionId).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(await store.spaces.get(doomed.id)).toBeNull();
      expect((await store.spaces.get(doomed.id, { includeDeleted: true }))!.deletionId).toBe(first.deletionId);
      expect(await store.spaces.markDeleted(doomed.id)).toEqual(first);
      await expect(store.revisions.create({ spaceId: doomed.id, parents: [], type: 'edits', pages: [], files: [] })).rejects.toBeInstanceOf(ConflictError);
      await expect(store.spaces.restore(doomed.id, 'another-deletion')).rejects.toBeInstanceOf(ConflictError);
      const restored = await store.spaces.restore(doomed.id, first.deletionId);
      expect(restored.deletedAt).toBeNull();
      await expect(store.spaces.purge(doomed.id, first.deletionId)).rejects.toBeInstanceOf(ConflictError);

      const second = await store.spaces.markDeleted(doomed.id);
      expect(second.deletionId).not.toBe(first.deletionId);
      await expect(store.spaces.purge(doomed.id, first.deletionId)).rejects.toBeInstanceOf(ConflictError);
      const hashes = [sha256Hex(shared), sha256Hex(own), sha256Hex(ownFile)];
      expect((await store.blobs.has(hashes)).size).toBe(3);
      const result = await store.spaces.purge(doomed.id, second.deletionId);
      expect(result).toEqual({ purged: true, revisions: 1, blobsDeleted: 2 });
      expect(await store.blobs.has(hashes)).toEqual(new Set([sha256Hex(shared)]));
      expect(await store.blobs.get(sha256Hex(own))).toBeNull();
      expect(await store.spaces.get(doomed.id, { includeDeleted: true })).toBeNull();
      expect(await store.revisions.get(rev.id)).toBeNull();
      expect(await count(store, 'revision_pages', 'revision_id = $1', [rev.id])).toBe(0);
      expect(await count(store, 'git_sync', 'space_id = $1', [doomed.id])).toBe(0);
      expect(await store.spaces.purge(doomed.id, second.deletionId)).toEqual({ purged: false, revisions: 0, blobsDeleted: 0 });
      const exists = contentCheck(options);
      if (exists) {
        expect(await exists(sha256Hex(own))).toBe(false);
        expect(await exists(sha256Hex(shared))).toBe(true);
      }
    });

    it('stores blobs by content and collects unreferenced, unpinned ones', async () => {
      const bytes = enc.encode(`loose ${uid('')}`);
      const hash = await store.blobs.put(bytes);
      expect(hash).toBe(sha256Hex(bytes));
      expect(await store.blobs.put(bytes)).toBe(hash);
      expect(await store.blobs.get(hash)).toEqual(bytes);
      expect(await store.blobs.get('0'.repeat(64))).toBeNull();
      expect(await store.blobs.get('not-a-hash')).toBeNull();
      const other = new TextEncoder().encode(`other ${Math.random()}`);
      const otherHash = await store.blobs.put(other);
      const many = await store.blobs.getMany([hash, otherHash, '0'.repeat(64), 'not-a-hash', hash]);
      expect([...many.keys()].sort()).toEqual([hash, otherHash].sort());
      expect(many.get(hash)).toEqual(bytes);
      expect(many.get(otherHash)).toEqual(other);
      expect((await store.blobs.getMany([])).size).toBe(0);
      // Pinned (default one hour): survives collection until a revision references it.
      await store.blobs.deleteUnreferenced();
      expect((await store.blobs.has([hash])).has(hash)).toBe(true);
      const loose = enc.encode(`unpinned ${uid('')}`);
      const [looseHash] = await store.blobs.putMany([loose], { pinMs: 0 });
      const space = await store.spaces.create(orgId, {});
      const referenced = enc.encode(`referenced ${uid('')}`);
      const [refHash] = await store.blobs.putMany([referenced], { pinMs: 0 });
      await store.revisions.create({
        spaceId: space.id,
        parents: [],
        type: 'edits',
        pages: [{ id: 'x', kind: 'document', title: 'X', body: { hash: refHash! } }],
        files: [],
      });
      await new Promise((r) => setTimeout(r, 20));
      const { deleted } = await store.blobs.deleteUnreferenced();
      expect(deleted).toBeGreaterThanOrEqual(1);
      const left = await store.blobs.has([hash, looseHash!, refHash!]);
      expect(left).toEqual(new Set([hash, refHash]));
      await expect(store.blobs.put('text' as never)).rejects.toBeInstanceOf(ValidationError);
    });

    it('collects no blob a revision names, though its rows have no foreign key: a revision and the collector never cross', async () => {
      const space = await store.spaces.create(orgId, {});
      for (let i = 0; i < 8; i++) {
        const fileBytes = enc.encode(`race file ${i} ${uid('')}`);
        const [body, file] = await store.blobs.putMany([enc.encode(`race body ${i} ${uid('')}`), fileBytes], { pinMs: 0 });
        await new Promise((r) => setTimeout(r, 5));
        // The collector and a revision naming the two unpinned blobs, at the same time: either the revision came
        // first and both blobs stay, or the collector did and the revision is refused. Never a revision naming a
        // deleted blob.
        const [created] = await Promise.allSettled([
          store.revisions.create({
            spaceId: space.id,
            parents: [],
            type: 'edits',
            pages: [{ id: 'x', kind: 'document', title: 'X', body: { hash: body! } }],
            files: [{ id: 'f', name: 'f.bin', size: fileBytes.byteLength, bytes: { hash: file! } }],
          }),
          store.blobs.deleteUnreferenced(),
        ]);
        const left = await store.blobs.has([body!, file!]);
        if (created.status === 'fulfilled') {
          expect(left).toEqual(new Set([body, file]));
          expect(await store.revisions.pageBody(created.value.id, 'x')).not.toBeNull();
          expect(await store.revisions.fileBytes(created.value.id, 'f')).not.toBeNull();
          // Kept by these rows alone, on the next collection too.
          await store.blobs.deleteUnreferenced();
          expect(await store.blobs.has([body!, file!])).toEqual(new Set([body, file]));
        } else {
          expect(created.reason).toBeInstanceOf(ValidationError);
          expect(String(created.reason.message)).toContain('unknown blob');
        }
      }
    });

    it('keeps git sync state without credentials, with compare-and-set on the operation', async () => {
      const space = await store.spaces.create(orgId, {});
      expect(await store.gitSync.get(space.id)).toEqual({
        spaceId: space.id,
        repo: null,
        lastImport: null,
        lastExport: null,
        operation: null,
        updatedAt: null,
      });
      const state = await store.gitSync.update(space.id, {
        repo: { url: 'https://user:s3cret@git.example.com/a/b.git', ref: 'main', projectDirectory: 'docs' },
      });
      expect(state.repo).toEqual({ url: 'https://git.example.com/a/b.git', ref: 'main', projectDirectory: 'docs' });
      const dump = await rawSql(store).query<{ t: string }>('SELECT row_to_json(g)::text AS t FROM git_sync g WHERE space_id = $1', [space.id]);
      expect(dump[0]!.t).not.toContain('s3cret');
      const running = { state: 'running', direction: 'import' as const, startedAt: new Date().toISOString() };
      await store.gitSync.update(space.id, { operation: running }, { ifOperationState: null });
      await expect(store.gitSync.update(space.id, { operation: running }, { ifOperationState: null })).rejects.toBeInstanceOf(ConflictError);
      const done = await store.gitSync.update(
        space.id,
        { operation: { ...running, state: 'succeeded' }, lastImport: { timestamp: new Date().toISOString(), commit: 'c'.repeat(40), requestId: 'r1' } },
        { ifOperationState: 'running' },
      );
      expect(done.operation!.state).toBe('succeeded');
      expect(done.lastImport!.commit).toBe('c'.repeat(40));
      expect(done.repo!.ref).toBe('main');
      const cleared = await store.gitSync.update(space.id, { repo: null });
      expect(cleared.repo).toBeNull();
      expect(cleared.lastImport).not.toBeNull();
      await expect(store.gitSync.update('no-such-space', { repo: null })).rejects.toBeInstanceOf(NotFoundError);
      await expect(store.gitSync.update(space.id, { bogus: 1 } as never)).rejects.toBeInstanceOf(ValidationError);
    });

    it("keeps declared extra git sync keys (repository pages, the mark's url) as written", async () => {
      const space = await store.spaces.create(orgId, {});
      const repo = {
        url: 'https://git.example.com/a/b.git',
        ref: 'main',
        treeURL: 'https://git.example.com/a/b/tree/main',
        commitURL: 'https://git.example.com/a/b/commit/{sha}',
        provider: 'github',
        infoURL: 'https://git.example.com/a/b',
      };
      const mark = { timestamp: new Date().toISOString(), commit: 'd'.repeat(40), requestId: 'r2', revisionId: 'rev', url: 'https://git.example.com/a/b.git' };
      await store.gitSync.update(space.id, { repo, lastImport: mark, lastExport: mark });
      const state = await store.gitSync.get(space.id);
      expect(state.repo).toEqual(repo);
      expect(state.lastImport).toEqual(mark);
      expect(state.lastExport!.url).toBe(mark.url);
    });

    it('logs git requests: the latest status per request, queued and duplicate never overwrite it', async () => {
      const space = await store.spaces.create(orgId, {});
      const timestamp = new Date(Date.UTC(2026, 0, 2)).toISOString();
      expect(await store.gitRequests.list(space.id)).toEqual([]);
      await store.gitRequests.record(space.id, { requestId: 'q1', direction: 'import', timestamp, status: 'queued' });
      await store.gitRequests.record(space.id, { requestId: 'q1', direction: 'import', timestamp, status: 'failed', code: 'GIT_AUTH', message: 'denied' });
      await store.gitRequests.record(space.id, { requestId: 'q1', direction: 'import', timestamp, status: 'duplicate' });
      await store.gitRequests.record(space.id, { requestId: 'q1', direction: 'import', timestamp, status: 'queued' });
      const [only, ...rest] = await store.gitRequests.list(space.id);
      expect(rest).toEqual([]);
      expect(only).toMatchObject({ requestId: 'q1', direction: 'import', timestamp, status: 'failed', code: 'GIT_AUTH', message: 'denied' });
      expect(only!.createdAt).toBeInstanceOf(Date);
      await store.gitRequests.record(space.id, { requestId: 'q2', direction: 'export', timestamp, status: 'running' });
      await store.gitRequests.record(space.id, { requestId: 'q2', direction: 'export', timestamp, status: 'succeeded' });
      const listed = await store.gitRequests.list(space.id, 1);
      expect(listed.map((r) => [r.requestId, r.status, r.code])).toEqual([['q2', 'succeeded', null]]);
      expect((await store.gitRequests.list(space.id)).map((r) => r.requestId)).toEqual(['q2', 'q1']);
      // A message carrying a NUL (a remote's protocol bytes) is recorded without it, in the log and in the operation.
      await store.gitRequests.record(space.id, {
        requestId: 'q4',
        direction: 'import',
        timestamp,
        status: 'failed',
        code: 'REMOTE_CORRUPT',
        message: 'bad\u0000pack',
      });
      expect((await store.gitRequests.list(space.id)).find((r) => r.requestId === 'q4')?.message).toBe('badpack');
      const failing = { state: 'failed', direction: 'import' as const, startedAt: timestamp, error: { code: 'REMOTE_CORRUPT', message: 'bad\u0000pack' } };
      expect((await store.gitSync.update(space.id, { operation: failing })).operation).toMatchObject({ error: { message: 'badpack' } });
      // Another space sees none of them; an unknown space is refused (the caller ignores it for a purged space).
      expect(await store.gitRequests.list((await store.spaces.create(orgId, {})).id)).toEqual([]);
      await expect(store.gitRequests.record('no-such-space', { requestId: 'q3', direction: 'import', timestamp, status: 'queued' })).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });

    it('keeps vault entries as sealed bytes, handed out only for their space until they expire', async () => {
      const space = await store.spaces.create(orgId, {});
      const other = await store.spaces.create(orgId, {});
      const sealed = enc.encode(`sealed ${uid('')}`);
      const id = uid('cred_');
      await store.vault.insert({ id, spaceId: space.id, sealed, expiresAt: new Date(Date.now() + 60_000) });
      expect(await store.vault.sealed(id, space.id)).toEqual(sealed);
      expect(await store.vault.sealed(id, other.id)).toBeNull();
      expect(await store.vault.sealed('unknown', space.id)).toBeNull();
      const expired = uid('cred_');
      await store.vault.insert({ id: expired, spaceId: space.id, sealed, expiresAt: new Date(Date.now() - 1000) });
      expect(await store.vault.sealed(expired, space.id)).toBeNull();
      expect(await store.vault.deleteExpired()).toBeGreaterThanOrEqual(1);
      expect(await count(store, 'vault_secrets', 'id = $1', [expired])).toBe(0);
      expect(await count(store, 'vault_secrets', 'id = $1', [id])).toBe(1);
      await store.vault.delete(id);
      await store.vault.delete(id);
      expect(await store.vault.sealed(id, space.id)).toBeNull();
      await expect(store.vault.insert({ id: uid('cred_'), spaceId: 'no-such-space', sealed, expiresAt: new Date(Date.now() + 60_000) })).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });

    it('keeps change requests numbered per space, with compare-and-set of their revision', async () => {
      const space = await store.spaces.create(orgId, {});
      const other = await store.spaces.create(orgId, {});
      const rev = async (spaceId: string) => (await store.revisions.create({ spaceId, parents: [], type: 'edits', pages: [], files: [] })).id;
      const r0 = await rev(space.id);
      const first = await store.changeRequests.create({ spaceId: space.id, subject: 'One', createdBy: 'tok1', revisionId: r0 });
      expect(first).toMatchObject({
        spaceId: space.id,
        number: 1,
        status: 'open',
        subject: 'One',
        createdBy: 'tok1',
        revisionId: r0,
        revisionInitial: r0,
        mergedRevisionId: null,
        mergedBy: null,
        mergedAt: null,
      });
      const second = await store.changeRequests.create({ spaceId: space.id, revisionId: r0, status: 'draft' });
      expect([second.number, second.subject, second.status, second.createdBy]).toEqual([2, '', 'draft', null]);
      expect((await store.changeRequests.create({ spaceId: other.id, revisionId: await rev(other.id) })).number).toBe(1);
      await expect(store.changeRequests.create({ spaceId: 'no-such-space', revisionId: r0 })).rejects.toBeInstanceOf(NotFoundError);

      expect(await store.changeRequests.get(space.id, first.id)).toEqual(first);
      expect(await store.changeRequests.get(other.id, first.id)).toBeNull();
      const page1 = await store.changeRequests.list(space.id, { limit: 1 });
      expect(page1.items.map((c) => c.number)).toEqual([1]);
      const page2 = await store.changeRequests.list(space.id, { limit: 1, page: page1.next!.page });
      expect(page2.items.map((c) => c.number)).toEqual([2]);
      expect(page2.next).toBeUndefined();
      expect([page1.total, page2.total]).toEqual([2, 2]);
      const drafts = await store.changeRequests.list(space.id, { limit: 10, status: 'draft' });
      expect(drafts.items.map((c) => c.id)).toEqual([second.id]);
      expect(drafts.total).toBe(1);
      const counts = await store.changeRequests.counts([space.id, other.id, 'no-such-space']);
      expect(Object.fromEntries(counts)).toEqual({
        [space.id]: { total: 2, open: 1, draft: 1 },
        [other.id]: { total: 1, open: 1, draft: 0 },
        'no-such-space': { total: 0, open: 0, draft: 0 },
      });
      await expect(store.changeRequests.list(space.id, { limit: 10, page: 'garbage' })).rejects.toBeInstanceOf(ValidationError);

      const renamed = await store.changeRequests.update(space.id, second.id, { subject: 'Two', status: 'open' });
      expect([renamed.subject, renamed.status]).toEqual(['Two', 'open']);
      await expect(store.changeRequests.update(other.id, second.id, { subject: 'x' })).rejects.toBeInstanceOf(NotFoundError);

      const r1 = await rev(space.id);
      const moved = await store.changeRequests.setRevision(first.id, r1, r0);
      expect([moved.revisionId, moved.revisionInitial]).toEqual([r1, r0]);
      await expect(store.changeRequests.setRevision(first.id, r0, r0)).rejects.toBeInstanceOf(ConflictError);
      const rebased = await store.changeRequests.setRevision(first.id, r0, r1, { revisionInitial: r1 });
      expect([rebased.revisionId, rebased.revisionInitial]).toEqual([r0, r1]);

      const merge = await rev(space.id);
      const merged = await store.changeRequests.markMerged(first.id, merge, 'tok2');
      expect(merged).toMatchObject({ status: 'merged', mergedRevisionId: merge, mergedBy: 'tok2' });
      expect(merged.mergedAt).toBeInstanceOf(Date);
      expect(await store.changeRequests.byMergedRevision(merge)).toEqual(merged);
      expect(await store.changeRequests.byMergedRevision(r1)).toBeNull();
      // A merged change request takes no more edits.
      await expect(store.changeRequests.setRevision(first.id, r1, r0)).rejects.toBeInstanceOf(ConflictError);
      await expect(store.changeRequests.markMerged('no-such-cr', merge)).rejects.toBeInstanceOf(NotFoundError);
    });
  });
  return facts;
}
