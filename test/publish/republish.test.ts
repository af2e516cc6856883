/**
 * A re-publish stores what changed against the last full publication (`site_publications.base_publication_id`): the
 * live site serves exactly the new content (the changed page new, every other page as it was, a removed page gone),
 * the earlier publications kept by the store still serve theirs, a change of navigation or title rewrites every page
 * that shows it, and a base is kept as long as a publication is stored against it. Runs `publishSite` with the
 * renderer in this process on a small space.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { treeFromFiles, type SourceTree } from '../../src/format/index.js';
import { publishSite, type PublishOutcome } from '../../src/publish/build.js';
import { loadHighlighter, renderPageBody } from '../../src/publish/render/index.js';
import type { Store } from '../../src/store/index.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { importIntoSpace, type ImportedSpace } from './corpus-space.js';

const PAGES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

function files(overrides: { body?: Record<string, string>; title?: Record<string, string>; drop?: string; note?: string } = {}): Record<string, string> {
  const kept = PAGES.filter((p) => p !== overrides.drop);
  const summary = `# Table of contents\n\n* [Home](README.md)\n${kept.map((p) => `* [${overrides.title?.[p] ?? p[0]!.toUpperCase() + p.slice(1)}](${p}.md)`).join('\n')}\n`;
  const out: Record<string, string> = {
    'README.md': '# Home\n\nWelcome.\n\n{% include ".gitbook/includes/note.md" %}\n',
    'SUMMARY.md': summary,
    '.gitbook/includes/note.md': `---\ntitle: Note\n---\n\n${overrides.note ?? 'A reusable note.'}\n`,
  };
  for (const p of kept)
    out[`${p}.md`] =
      `# ${overrides.title?.[p] ?? p[0]!.toUpperCase() + p.slice(1)}\n\n${overrides.body?.[p] ?? `The ${p} page.`}\n\n\`\`\`js\nconst ${p} = 1;\n\`\`\`\n`;
  return out;
}

let store: Store;
let organizationId: string;

beforeAll(async () => {
  store = await createTestStore();
  organizationId = (await store.orgs.create({ title: 'Republish' })).id;
  // Every code block highlighted in the first run (a page whose code was left plain is rendered again).
  await loadHighlighter();
});

/** A site over a fresh space holding `files()`, published once. */
async function newSite(): Promise<{ siteId: string; spaceId: string; imported: ImportedSpace; first: PublishOutcome }> {
  const spaceId = (await store.spaces.create(organizationId, { title: 'Docs' })).id;
  const imported = await importIntoSpace(store, spaceId, treeFromFiles(files()), '');
  const siteId = (await store.sites.create(organizationId, { title: 'Docs', spaces: [spaceId] })).id;
  const first = (await publish(siteId, 'first'))!;
  return { siteId, spaceId, imported, first };
}

async function publish(siteId: string, requestKey: string): Promise<PublishOutcome> {
  const deps = { store, render: async (input: Parameters<typeof renderPageBody>[0]) => renderPageBody(input), logger: testLogger('publish') };
  return (await publishSite(deps, { organizationId, siteId, requestKey }))!;
}

async function reimport(spaceId: string, previous: ImportedSpace, tree: SourceTree): Promise<ImportedSpace> {
  return importIntoSpace(store, spaceId, tree, '', previous);
}

/** Path → content of every file a publication serves, read one by one as the serving side does. */
async function served(publicationId: string, paths: string[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const path of paths) {
    const f = await store.sites.publicationFile(publicationId, path);
    const bytes = f ? await store.blobs.get(f.hash) : null;
    out.set(path, bytes ? new TextDecoder().decode(bytes) : null);
  }
  return out;
}

const live = async (siteId: string) => (await store.sites.get(organizationId, siteId))!.livePublicationId!;

describe('re-publishing a site', () => {
  it('serves the changed page new and every other file as it was; the earlier publication still serves its own', async () => {
    const { siteId, spaceId, imported, first } = await newSite();
    const paths = (await store.sites.publicationFiles(first.publicationId)).map((f) => f.path);
    const before = await served(first.publicationId, paths);
    await reimport(spaceId, imported, treeFromFiles(files({ body: { gamma: 'The gamma page, edited.' } })));
    const second = await publish(siteId, 'second');
    expect(second).toMatchObject({ rendered: 1, reused: PAGES.length });
    const id = await live(siteId);
    expect(id).toBe(second.publicationId);
    // Stored against the first publication: only what differs was written.
    expect((await store.sites.publicationLayers(id)).base.publicationId).toBe(first.publicationId);
    const after = await served(id, paths);
    expect(after.get('gamma/index.html')).toContain('The gamma page, edited.');
    expect(after.get('gamma.md')).toContain('The gamma page, edited.');
    const changed = paths.filter((p) => after.get(p) !== before.get(p)).sort();
    // The page, its twin and llms.txt does not list bodies: the page and its twin only.
    expect(changed).toEqual(['gamma.md', 'gamma/index.html']);
    // The full list reads the same as the files one by one.
    const listed = await store.sites.publicationFiles(id);
    expect(listed.map((f) => f.path).sort()).toEqual([...paths].sort());
    // The earlier publication, kept by the store, still serves the old page.
    expect((await served(first.publicationId, ['gamma/index.html'])).get('gamma/index.html')).toContain('The gamma page.');
  });

  it('a page left out of the new revision is not served by the new publication, and still is by the earlier one', async () => {
    const { siteId, spaceId, imported, first } = await newSite();
    await reimport(spaceId, imported, treeFromFiles(files({ drop: 'delta' })));
    const second = await publish(siteId, 'second');
    const id = await live(siteId);
    expect((await store.sites.publicationLayers(id)).base.publicationId).toBe(first.publicationId);
    expect((await served(id, ['delta/index.html', 'delta.md', 'alpha/index.html'])).get('delta/index.html')).toBeNull();
    expect((await served(id, ['delta.md'])).get('delta.md')).toBeNull();
    expect((await store.sites.publicationFiles(id)).some((f) => f.path.startsWith('delta'))).toBe(false);
    expect((await served(first.publicationId, ['delta/index.html'])).get('delta/index.html')).toContain('The delta page.');
    // Every remaining page shows the navigation without it: rendered again.
    expect(second.rendered).toBe(PAGES.length);
  });

  it('a title change in the navigation rewrites every page that shows it', async () => {
    const { siteId, spaceId, imported, first } = await newSite();
    const paths = (await store.sites.publicationFiles(first.publicationId)).map((f) => f.path).filter((p) => p.endsWith('/index.html') || p === 'index.html');
    await reimport(spaceId, imported, treeFromFiles(files({ title: { beta: 'Beta renamed' } })));
    const second = await publish(siteId, 'second');
    expect(second.rendered).toBe(PAGES.length + 1);
    const after = await served(await live(siteId), paths);
    expect(paths.length).toBe(PAGES.length + 1);
    for (const path of paths) expect(after.get(path), path).toContain('Beta renamed');
  });

  it('reads the body of the changed page only; a page whose include changed is rendered again with the new text', async () => {
    const { siteId, spaceId, imported } = await newSite();
    const getMany = store.blobs.getMany.bind(store.blobs);
    const asked: string[] = [];
    store.blobs.getMany = async (hashes) => {
      asked.push(...hashes);
      return getMany(hashes);
    };
    try {
      const next = await reimport(spaceId, imported, treeFromFiles(files({ body: { beta: 'The beta page, edited.' } })));
      const bodies = await store.revisions.pages(next.revisionId);
      const bodyOf = new Map(
        bodies.flatMap(function flat(p): Array<[string, string | null]> {
          return [[p.path ?? '', p.bodyHash ?? null], ...p.children.flatMap(flat)];
        }),
      );
      asked.length = 0;
      expect(await publish(siteId, 'second')).toMatchObject({ rendered: 1 });
      const read = new Set(asked);
      expect(read.has(bodyOf.get('beta')!)).toBe(true);
      expect(PAGES.filter((p) => p !== 'beta').filter((p) => read.has(bodyOf.get(p)!))).toEqual([]);
      expect(read.has(bodyOf.get('')!)).toBe(false);
    } finally {
      store.blobs.getMany = getMany;
    }
    await reimport(spaceId, imported, treeFromFiles(files({ body: { beta: 'The beta page, edited.' }, note: 'A changed note.' })));
    const third = await publish(siteId, 'third');
    expect(third.rendered).toBe(1);
    expect((await served(await live(siteId), ['index.html'])).get('index.html')).toContain('A changed note.');
  });

  it('keeps the base of the live publication however many publications followed it', async () => {
    const { siteId, spaceId, imported, first } = await newSite();
    let previous = imported;
    for (let run = 0; run < 6; run++) {
      const tree = treeFromFiles(files({ body: { alpha: `The alpha page, edit ${run}.` } }));
      previous = await reimport(spaceId, previous, tree);
      expect((await publish(siteId, `run-${run}`)).rendered).toBe(1);
    }
    const id = await live(siteId);
    expect((await store.sites.publicationLayers(id)).base.publicationId).toBe(first.publicationId);
    const contents = await served(
      id,
      (await store.sites.publicationFiles(id)).map((f) => f.path),
    );
    expect(contents.get('alpha/index.html')).toContain('The alpha page, edit 5.');
    expect(contents.get('beta/index.html')).toContain('The beta page.');
    expect([...contents.values()].every((c) => c !== null)).toBe(true);
    // The older publications went (the last three stay), the base did not.
    expect(await store.sites.publication(siteId, first.publicationId)).not.toBeNull();
  });
});
