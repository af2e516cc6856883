/**
 * Issue 33: the `urls.app` of a space, of its pages and of a change request lead to a read-only preview rendered by
 * the published sites' renderer (through `/app/s/…` → `/v1/spaces/{id}/preview/…`, read on the space needed); a
 * change request's preview marks the pages it changes. Another organization's space answers 404, no token 401.
 */
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { toString as toText } from 'hast-util-to-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiBed, type ApiBed, type Person } from '../helpers/api-bed.js';
import { corpusTree, importIntoSpace, withFile } from './corpus-space.js';

const REPO = 'GitbookIO+git-sync-normalization';
let bed: ApiBed;
let spaceId: string;
let stranger: Person;

async function get(who: Person | null, url: string) {
  const res = await bed.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, ''), headers: who ? { authorization: `Bearer ${who.token}` } : {} });
  return { status: res.statusCode, headers: res.headers, body: res.body };
}

/** Follows the redirects of a `urls.app` address (same origin: the bearer token goes along, as a client sends it). */
async function open(url: string, who: Person = bed.service) {
  let current = url;
  let res = await get(who, current);
  for (let i = 0; i < 8 && (res.status === 302 || res.status === 503); i++) {
    // 503 + Retry-After: the render thread was still loading (a cold thread on a loaded machine); ask again.
    if (res.status === 302) current = String(res.headers.location);
    res = await get(who, current);
  }
  return res;
}

beforeAll(async () => {
  bed = await startApiBed('preview-org');
  stranger = (await startApiBedStranger()).service;
  spaceId = (await bed.store.spaces.create(bed.organizationId, { title: 'Normalization' })).id;
  const { tree, projectDirectory } = await corpusTree(REPO);
  const base = await importIntoSpace(bed.store, spaceId, tree, projectDirectory);
  const quote = new TextDecoder().decode(await tree.get('quote.md')!.read());
  const changed = await importIntoSpace(
    bed.store,
    spaceId,
    withFile(tree, 'quote.md', `${quote}\n\nA sentence the change request adds.\n`),
    projectDirectory,
    base,
  );
  await bed.store.spaces.setPrimaryRevision(spaceId, base.revisionId);
  // A change request made from the primary revision, then edited (its revision moves on; it started from the base).
  const cr = await bed.store.changeRequests.create({ spaceId, subject: 'Quote edits', revisionId: base.revisionId });
  await bed.store.changeRequests.setRevision(cr.id, changed.revisionId, base.revisionId);
}, 180_000);

async function startApiBedStranger() {
  const other = await bed.store.orgs.create({ title: 'Other' });
  const token = await bed.store.tokens.create(other.id, { label: 'other' });
  return { service: { id: token.id, token: token.token } };
}

/** The page object (API shape, with its `urls.app`) of `quote.md`, from the space's page list. */
async function quotePage(): Promise<{ title: string; path: string; urls: { app: string } }> {
  const res = await get(bed.service, `/v1/spaces/${spaceId}/content/pages`);
  expect(res.status, res.body.slice(0, 200)).toBe(200);
  type Item = { title: string; path: string; urls: { app: string }; pages?: Item[] };
  const flat = (items: Item[]): Item[] => items.flatMap((p) => [p, ...flat(p.pages ?? [])]);
  return flat(JSON.parse(res.body).pages as Item[]).find((p) => p.path === 'quote')!;
}

afterAll(async () => {
  await bed?.close();
});

describe('previews behind urls.app', () => {
  it("a space's and a page's urls.app show the page rendered with the sites' renderer and frame", async () => {
    const space = JSON.parse((await get(bed.service, `/v1/spaces/${spaceId}`)).body);
    const home = await open(space.urls.app);
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect(home.headers['content-security-policy']).toContain("script-src 'sha256-");
    const tree = fromHtml(home.body);
    expect(selectAll('nav.sidebar a', tree).length).toBeGreaterThan(10);
    const css = selectAll('link[rel=stylesheet]', tree)[0]!.properties.href as string;
    expect((await get(bed.service, `/v1/spaces/${spaceId}/preview/${css}`)).headers['content-type']).toMatch(/^text\/css/);

    const page = await quotePage();
    const shown = await open(page.urls.app);
    expect(shown.status).toBe(200);
    expect(toText(selectAll('main h1', fromHtml(shown.body))[0]!)).toBe(page.title);
    expect(shown.body).not.toContain('A sentence the change request adds.');
    expect(shown.body).toContain('code-block');
  });

  it("a change request's urls.app previews its revision and marks the pages it changes", async () => {
    const list = JSON.parse((await get(bed.service, `/v1/spaces/${spaceId}/change-requests`)).body);
    const cr = list.items[0];
    const home = await open(cr.urls.app);
    expect(home.status).toBe(200);
    // The entries carrying the mark themselves (the mark is a child of its entry's <li>).
    const marked = selectAll('nav.sidebar li', fromHtml(home.body)).filter((li) =>
      li.children.some((c) => c.type === 'element' && String(c.properties.className ?? '').includes('changed-mark')),
    );
    expect(marked.map((li) => toText(selectAll('a', li)[0]!))).toEqual([
      JSON.parse((await get(bed.service, `/v1/spaces/${spaceId}/content/path/quote`)).body).title,
    ]);
    const href = selectAll('a', marked[0]!)[0]!.properties.href as string;
    const page = await open(`/v1/spaces/${spaceId}/preview/~/changes/${cr.number}/${href}`);
    expect(page.body).toContain('A sentence the change request adds.');
    expect(toText(selectAll('.preview-banner', fromHtml(page.body))[0]!)).toBe('Preview of change request #1: Quote edits · this page is changed');
  });

  it('answers 404 to another organization and 401 without a token; unknown pages and change requests are 404', async () => {
    expect((await open(`/app/s/${spaceId}`, stranger)).status).toBe(404);
    expect((await get(null, `/v1/spaces/${spaceId}/preview/`)).status).toBe(401);
    expect((await open(`/v1/spaces/${spaceId}/preview/no-such-page/`)).status).toBe(404);
    expect((await open(`/v1/spaces/${spaceId}/preview/~/changes/99/`)).status).toBe(404);
  });
});
