import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type SearchPageInput, type Store } from '../../src/store/index.js';
import { detectLanguage, searchConfigName } from '../../src/search/languages.js';
import { indexSpace } from '../../src/search/index-space.js';
import { searchSections } from '../../src/search/sections.js';
import { testLogger } from '../helpers/logger.js';
import { searchPages, searchPagesTolerant } from '../../src/search/query.js';
import { storedPage } from '../../src/search/stored-page.js';
import { queryText } from '../../src/search/text.js';
import { rawSql } from '../../src/store/raw-sql.js';
import { pgliteTemplate } from '../helpers/store.js';
import { postgresUnavailableReason, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const server: TestPostgres | null = await startPostgres();
afterAll(async () => {
  await server?.stop();
});

function page(
  pageId: string,
  ord: number,
  title: string,
  sections: Array<[string, string, string]>,
  extra: Partial<Omit<SearchPageInput, 'sections'>> = {},
): SearchPageInput {
  return storedPage({
    pageId,
    contentKey: `${pageId}:${JSON.stringify(sections)}`,
    ord,
    title,
    description: '',
    path: pageId,
    ancestors: [],
    sections: sections.map(([anchor, t, body]) => ({ anchor, title: t, body })),
    ...extra,
  });
}

async function spaceWithRevision(store: Store, org: string, language?: string) {
  const space = await store.spaces.create(org, { title: 's', ...(language ? { language } : {}) });
  const { id } = await store.revisions.create({ spaceId: space.id, parents: [], type: 'edits', pages: [], files: [] });
  await store.spaces.setPrimaryRevision(space.id, id);
  return { spaceId: space.id, revisionId: id };
}

function defineSearchSuite(name: string, open: () => Promise<Store>) {
  describe(name, () => {
    let store: Store;
    let org: string;
    let other: string;
    beforeAll(async () => {
      store = await open();
      org = (await store.orgs.create({ title: 'acme' })).id;
      other = (await store.orgs.create({ title: 'other' })).id;
    });
    afterAll(async () => store?.close());

    it('maps space languages to text search configurations, simple otherwise', async () => {
      expect(await store.search.configFor(searchConfigName('en'))).toBe('english');
      expect(await store.search.configFor(searchConfigName('pt-BR'))).toBe('portuguese');
      expect(await store.search.configFor(searchConfigName('zh-TW'))).toBe('simple');
      expect(await store.search.configFor(searchConfigName(null))).toBe('simple');
      expect(await store.search.configFor(searchConfigName('xx'))).toBe('simple');
    });

    it('ranks, stems, highlights and gives sections with their anchors and ancestors', async () => {
      const { spaceId, revisionId } = await spaceWithRevision(store, org, 'en');
      const config = await store.search.configFor(searchConfigName('en'));
      const result = await store.search.apply({
        spaceId,
        organizationId: org,
        revisionId,
        config,
        keep: [],
        upsert: [
          page('guide', 0, 'Guide', [['', '', 'An introduction to everything.']]),
          page(
            'deploy',
            1,
            'Deploying',
            [
              ['', '', 'How to ship it.'],
              ['running-the-server', 'Running the server', 'The server keeps <b>running</b> until stopped & restarted.'],
              ['logs', 'Logs', 'Where the logs go.'],
            ],
            { ancestors: ['Guide'], path: 'guide/deploy' },
          ),
          page('run', 2, 'Run', [['', '', 'A page titled run.']]),
        ],
      });
      expect(result).toMatchObject({ applied: true, written: 3 });
      const found = await searchPages(store, { organizationId: org, query: 'run', limit: 10 });
      expect(found.items.map((p) => p.pageId)).toEqual(['run', 'deploy']);
      expect(found.items[0]).toMatchObject({ rank: 1, resultType: 'page', title: 'Run' });
      const deploy = found.items[1]!;
      expect(deploy).toMatchObject({ rank: 2, resultType: 'section', ancestors: ['Guide'], path: 'guide/deploy', spaceId });
      expect(deploy.score).toBeGreaterThan(0);
      expect(deploy.sections[0]).toMatchObject({ anchor: 'running-the-server', title: 'Running the server' });
      expect(deploy.sections[0]!.snippet).toContain('<mark>running</mark>');
      // Only the marks are markup: tags in the text are dropped, the rest escaped.
      expect(deploy.sections[0]!.snippet).not.toContain('<b>');
      expect(deploy.sections[0]!.snippet).toContain('&amp;');
      expect(deploy.sections.map((s) => s.anchor)).not.toContain('logs');
      // Pagination keeps the global rank.
      const first = await searchPages(store, { organizationId: org, spaceIds: [spaceId], query: 'run', limit: 1 });
      expect(first.next).toBeDefined();
      const second = await searchPages(store, { organizationId: org, spaceIds: [spaceId], query: 'run', limit: 1, page: first.next!.page });
      expect(second.items.map((p) => [p.pageId, p.rank])).toEqual([['deploy', 2]]);
      expect(second.next).toBeUndefined();
      await expect(searchPages(store, { organizationId: org, query: 'run', limit: 1, page: 'garbage' })).rejects.toMatchObject({ code: 'VALIDATION' });
      // Another organization never sees these pages.
      expect((await searchPages(store, { organizationId: other, query: 'run', limit: 10 })).items).toEqual([]);
      expect((await searchPages(store, { organizationId: other, spaceIds: [spaceId], query: 'run', limit: 10 })).items).toEqual([]);
    });

    it('finds Traditional Chinese words inside runs of ideographs', async () => {
      const { spaceId, revisionId } = await spaceWithRevision(store, org, 'zh-TW');
      await store.search.apply({
        spaceId,
        organizationId: org,
        revisionId,
        config: await store.search.configFor(searchConfigName('zh-TW')),
        keep: [],
        upsert: [
          page('p', 0, '資料庫管理', [
            ['', '', '本章介紹如何備份與還原資料庫。'],
            ['備份', '備份', '使用 pg_dump 進行邏輯備份。'],
          ]),
        ],
      });
      const hit = await searchPages(store, { organizationId: org, spaceIds: [spaceId], query: '還原', limit: 10 });
      expect(hit.items.map((p) => p.pageId)).toEqual(['p']);
      expect(hit.items[0]!.sections[0]!.snippet).toContain('<mark>還原</mark>');
      const heading = await searchPages(store, { organizationId: org, spaceIds: [spaceId], query: '邏輯備份', limit: 10 });
      expect(heading.items[0]!.sections.map((s) => s.anchor)).toEqual(['備份']);
      expect((await searchPages(store, { organizationId: org, spaceIds: [spaceId], query: '還備', limit: 10 })).items).toEqual([]);
    });

    it('reads a long section from a little before its first match for the snippet, not whole', async () => {
      const { spaceId, revisionId } = await spaceWithRevision(store, org, 'zh-TW');
      const config = await store.search.configFor(searchConfigName('zh-TW'));
      const filler = '本章介紹如何管理資料庫。'.repeat(2000);
      await store.search.apply({
        spaceId,
        organizationId: org,
        revisionId,
        config,
        keep: [],
        upsert: [page('long', 0, '長頁', [['', '', `${filler}最後還原資料。`]])],
      });
      const scope = { organizationId: org, spaceIds: [spaceId], limit: 10 };
      const raw = await store.search.pages({ ...scope, query: queryText('還原'), cjk: true });
      const text = raw.items[0]!.sections[0]!.text!;
      expect(text.length).toBeLessThanOrEqual(6000);
      expect(text).toContain('還原');
      expect((await searchPages(store, { ...scope, query: '還原' })).items[0]!.sections[0]!.snippet).toContain('<mark>還原</mark>');
      // A long English section: its snippet marks a word 164,000 characters in.
      const en = await spaceWithRevision(store, org, 'en');
      const body = `${'Plain words about nothing in particular. '.repeat(4000)}The lantern is lit.`;
      await store.search.apply({ ...en, organizationId: org, config: 'english', keep: [], upsert: [page('lamp', 0, 'Lamp', [['', '', body]])] });
      const hit = await searchPages(store, { organizationId: org, spaceIds: [en.spaceId], query: 'lanterns', limit: 10 });
      expect(hit.items[0]!.sections[0]!.snippet).toContain('The <mark>lantern</mark> is lit');
    });

    it('keeps unchanged pages, removes missing ones, refuses a revision that is no longer primary, forgets deleted and purged spaces', async () => {
      const { spaceId, revisionId } = await spaceWithRevision(store, org);
      const base = { spaceId, organizationId: org, config: 'simple' };
      await store.search.apply({
        ...base,
        revisionId,
        keep: [],
        upsert: [page('a', 0, 'Alpha', [['', '', 'zebra']]), page('b', 1, 'Beta', [['', '', 'yak']])],
      });
      const { id: next } = await store.revisions.create({ spaceId, parents: [revisionId], type: 'edits', pages: [], files: [] });
      // Not primary yet: refused.
      expect(await store.search.apply({ ...base, revisionId: next, keep: [], upsert: [] })).toMatchObject({ applied: false });
      await store.spaces.setPrimaryRevision(spaceId, next);
      expect(await store.search.apply({ ...base, revisionId: next, keep: [{ pageId: 'b', ord: 0 }], upsert: [] })).toMatchObject({ applied: true, removed: 1 });
      const state = await store.search.state(spaceId);
      expect(state).toMatchObject({ revisionId: next, config: 'simple' });
      expect([...state!.keys.keys()]).toEqual(['b']);
      expect((await searchPages(store, { organizationId: org, spaceIds: [spaceId], query: 'zebra', limit: 10 })).items).toEqual([]);
      expect((await searchPages(store, { organizationId: org, spaceIds: [spaceId], query: 'yak', limit: 10 })).items.map((p) => p.pageId)).toEqual(['b']);
      expect(await store.search.scanPages({ organizationId: org, spaceIds: [spaceId], query: 'ya', limit: 10 })).toEqual([{ spaceId, pageId: 'b' }]);

      const { deletionId } = await store.spaces.markDeleted(spaceId);
      expect((await searchPages(store, { organizationId: org, query: 'yak', limit: 10 })).items).toEqual([]);
      await store.spaces.purge(spaceId, deletionId);
      const left = await rawSql(store).query(
        'SELECT 1 FROM search_sections WHERE space_id = $1 UNION ALL SELECT 1 FROM search_index_state WHERE space_id = $1',
        [spaceId],
      );
      expect(left).toEqual([]);
    });

    it('tolerates typos: a misspelled word finds the page through the closest indexed word (pg_trgm), only in its scope', async () => {
      const { spaceId, revisionId } = await spaceWithRevision(store, org, 'en');
      const config = await store.search.configFor(searchConfigName('en'));
      await store.search.apply({
        spaceId,
        organizationId: org,
        revisionId,
        config,
        keep: [],
        upsert: [
          page('coll', 0, 'Collections', [['', '', 'A collection groups spaces.']]),
          page('auth', 1, 'Sign in', [['sso', 'Single sign-on', 'SAML authentication for members.']]),
        ],
      });
      const scope = { organizationId: org, spaceIds: [spaceId], limit: 10 };
      expect((await searchPages(store, { ...scope, query: 'colection' })).items).toEqual([]);
      expect(await store.search.similarWord({ organizationId: org, spaceIds: [spaceId], word: 'colection' })).toBe('collection');
      const typo = await searchPagesTolerant(store, { ...scope, query: 'colection' });
      expect(typo.corrected).toBe('collection');
      expect(typo.items.map((p) => p.pageId)).toEqual(['coll']);
      const auth = await searchPagesTolerant(store, { ...scope, query: 'authentification' });
      expect(auth.corrected).toBe('authentication');
      expect(auth.items.map((p) => [p.pageId, p.sections[0]?.anchor])).toEqual([['auth', 'sso']]);
      // An exact hit is not corrected; nothing close stays nothing; another organization's words are not suggested.
      expect((await searchPagesTolerant(store, { ...scope, query: 'collection' })).corrected).toBeUndefined();
      expect((await searchPagesTolerant(store, { ...scope, query: 'zzqqxx' })).items).toEqual([]);
      expect(await store.search.similarWord({ organizationId: other, word: 'colection' })).toBeNull();
    });

    it('keeps the index tables from growing when a space is indexed again and again (dead rows vacuumed: PGlite has no autovacuum)', async () => {
      const { spaceId } = await spaceWithRevision(store, org, 'en');
      const sql = rawSql(store);
      const sizes: number[] = [];
      for (let cycle = 0; cycle < 8; cycle++) {
        // Every page changed: the old rows go, as many new ones come (900 sections, enough to refresh the statistics).
        const { id: revisionId } = await store.revisions.create({ spaceId, parents: [], type: 'edits', pages: [], files: [] });
        await store.spaces.setPrimaryRevision(spaceId, revisionId);
        const text = (i: number, k: number) => `cycle ${cycle} page ${i} part ${k} `.repeat(20);
        const upsert = Array.from({ length: 300 }, (_, i) =>
          page(`g${i}`, i, `Page ${i}`, [
            ['', '', text(i, 0)],
            ['one', 'One', text(i, 1)],
            ['two', 'Two', text(i, 2)],
          ]),
        );
        expect((await store.search.apply({ spaceId, organizationId: org, revisionId, config: 'english', keep: [], upsert })).applied).toBe(true);
        const [row] = await sql.query<{ n: string | number }>(`SELECT pg_relation_size('search_sections') AS n`);
        sizes.push(Number(row!.n));
      }
      // Without a vacuum each cycle adds its rows' size again (8 cycles: about four times the size after the second).
      expect(sizes[7]!).toBeLessThanOrEqual(sizes[1]! * 1.5);
    });

    it('finds rare words through the GIN index on the space and organization routes (EXPLAIN), statistics refreshed after indexing', async () => {
      const acme = (await store.orgs.create({ title: 'indexed' })).id;
      const vocabulary = Array.from({ length: 400 }, (_, i) => `word${i.toString(36)}`);
      const spaces: string[] = [];
      for (let s = 0; s < 2; s++) {
        const { spaceId, revisionId } = await spaceWithRevision(store, acme, 'en');
        spaces.push(spaceId);
        const upsert = Array.from({ length: 400 }, (_, i) => {
          const words = (k: number) => Array.from({ length: 30 }, (_, j) => vocabulary[(i * 7 + j * 13 + k) % vocabulary.length]).join(' ');
          const rare = i === 17 ? ' zeppelin' : '';
          return page(`p${i}`, i, `Page ${i}`, [
            ['', '', words(0)],
            ['one', 'One', words(1) + rare],
            ['two', 'Two', words(2)],
          ]);
        });
        await store.search.apply({ spaceId, organizationId: acme, revisionId, config: 'english', keep: [], upsert });
      }
      const usesIndex = /search_sections_document/;
      const org = { organizationId: acme, query: 'zeppelin', limit: 10 };
      expect(await store.search.explain(org)).toMatch(usesIndex);
      expect(await store.search.explain({ ...org, spaceIds: [spaces[0]!] })).toMatch(usesIndex);
      expect((await searchPages(store, org)).items.map((p) => [p.spaceId, p.pageId, p.sections[0]?.anchor]).sort()).toEqual(
        spaces.map((s) => [s, 'p17', 'one']).sort(),
      );
      expect((await searchPages(store, { ...org, spaceIds: [spaces[1]!] })).items.map((p) => p.spaceId)).toEqual([spaces[1]]);
      // Only stop words: nothing can match, nothing to plan.
      expect(await store.search.explain({ ...org, query: 'the' })).toBeNull();
    });

    it('ranks exactly the pages where the words are prominent when more pages match than are ranked, and counts them all', async () => {
      const { spaceId, revisionId } = await spaceWithRevision(store, org, 'en');
      const filler = (i: number) => `Notes about item ${i} and the weather in general. `.repeat(3);
      // 260 pages name the lantern once in their text; two (sorted last by id) name it again and again.
      const upsert = Array.from({ length: 260 }, (_, i) =>
        page(`a${String(i).padStart(3, '0')}`, i, `Page ${i}`, [
          ['', '', filler(i)],
          ['more', 'More', `${filler(i)} A lantern was seen.`],
        ]),
      );
      upsert.push(
        page('z1', 300, 'Z one', [
          ['', '', filler(1)],
          ['lamps', 'Lamps', 'The lantern, the lantern and the lantern. '.repeat(4)],
        ]),
      );
      upsert.push(
        page('z2', 301, 'Z two', [
          ['', '', filler(2)],
          ['lamps', 'Lamps', 'One lantern and another lantern. '.repeat(3)],
        ]),
      );
      await store.search.apply({ spaceId, organizationId: org, revisionId, config: 'english', keep: [], upsert });
      const scope = { organizationId: org, spaceIds: [spaceId], query: 'lantern', limit: 10 };
      const first = await searchPages(store, scope);
      expect(first.total).toBe(262);
      expect(first.items.slice(0, 2).map((p) => [p.pageId, p.rank])).toEqual([
        ['z1', 1],
        ['z2', 2],
      ]);
      expect(first.items[0]!.score).toBeGreaterThan(first.items[1]!.score);
      expect(first.items[1]!.score).toBeGreaterThan(first.items[2]!.score);
      // The next page goes on where the first stopped.
      const second = await searchPages(store, { ...scope, page: first.next!.page });
      expect(second.items[0]!.rank).toBe(11);
      expect(second.items.filter((p) => first.items.some((f) => f.pageId === p.pageId))).toEqual([]);
    });

    it('stems a space without a language in the language detected from its pages', async () => {
      const prose = (n: number) =>
        `# Security ${n}\n\nThis guide explains how an attacker could try the exploitation of a weakness in the server, and how ` +
        `administrators should configure their deployments to reduce the risks. Every section describes the steps to follow.\n`;
      const spaces: Record<string, string> = {};
      for (const language of [null, 'fr']) {
        const space = await store.spaces.create(org, { title: 'no language', ...(language ? { language } : {}) });
        const pages = [0, 1, 2].map((i) => ({
          id: `p${i}`,
          kind: 'document' as const,
          title: `Security ${i}`,
          path: `p${i}`,
          body: new TextEncoder().encode(prose(i)),
        }));
        const { id } = await store.revisions.create({ spaceId: space.id, parents: [], type: 'edits', pages, files: [] });
        await store.spaces.setPrimaryRevision(space.id, id);
        const deps = { store, logger: testLogger('index'), extract: async (md: string) => searchSections(md), detectLanguage, progress: () => {} };
        expect(await indexSpace(deps, { spaceId: space.id, organizationId: org })).toMatchObject({ outcome: 'indexed', pages: 3 });
        // Detected again, the same: nothing to rebuild.
        expect(await indexSpace(deps, { spaceId: space.id, organizationId: org })).toMatchObject({ outcome: 'current' });
        spaces[language ?? 'none'] = space.id;
      }
      expect(await store.search.state(spaces.none!)).toMatchObject({ config: 'english' });
      const found = await searchPages(store, { organizationId: org, spaceIds: [spaces.none!], query: 'exploit', limit: 10 });
      expect(found.items.map((p) => p.pageId).sort()).toEqual(['p0', 'p1', 'p2']);
      // The space's own language wins over what its text looks like.
      expect(await store.search.state(spaces.fr!)).toMatchObject({ config: 'french' });
    });

    it('refuses an empty or too long query', async () => {
      await expect(searchPages(store, { organizationId: org, query: '  ', limit: 10 })).rejects.toMatchObject({ code: 'VALIDATION' });
      await expect(searchPages(store, { organizationId: org, query: 'x'.repeat(513), limit: 10 })).rejects.toMatchObject({ code: 'VALIDATION' });
    });
  });
}

defineSearchSuite('search index on PGlite', () => openStore({ dataDir: 'memory://', pgliteTemplate: pgliteTemplate() }));
if (server) defineSearchSuite('search index on a PostgreSQL server', () => openStore({ databaseUrl: server.url, poolSize: 4 }));
else describe.skip(`search index on PostgreSQL: skipped (${postgresUnavailableReason})`, () => it('needs a server', () => {}));
