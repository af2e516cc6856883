/**
 * A publish run over a real corpus space with math (GitBook's own documentation: its math block page), one page given reusable content and
 * emoji: KaTeX typesets the math at build time (its stylesheet and fonts are files of the site, the page's math
 * styles a stylesheet of their own, nothing inline), the include is expanded, a missing one is a typed warning,
 * and a page reused by the next run keeps its math stylesheet. Runs `publishSite` with the renderer in this process.
 */
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { toString as toText } from 'hast-util-to-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSite, type PublishOutcome } from '../../src/publish/build.js';
import { META_CSP } from '../../src/publish/csp.js';
import { loadHighlighter, renderPageBody } from '../../src/publish/render/index.js';
import { allPages, type DocumentPage } from '../../src/format/index.js';
import type { Store } from '../../src/store/index.js';
import { createTestStore } from '../helpers/store.js';
import { testLogger } from '../helpers/logger.js';
import { corpusTree, importIntoSpace, withFile } from './corpus-space.js';

const REPO = 'GitbookIO+public-docs';
const MATH_PAGE = 'create-content/blocks/math-and-tex.md';
let store: Store;
let siteId: string;
let organizationId: string;
let first: PublishOutcome;
/** The site address of the math page (`<path>/`). */
let mathHref: string;
let docs: DocumentPage[];

const deps = () => ({
  store,
  render: async (input: Parameters<typeof renderPageBody>[0]) => renderPageBody(input),
  logger: testLogger('publish'),
  publicUrl: 'http://127.0.0.1:1',
});

async function file(path: string): Promise<string | null> {
  const site = await store.sites.get(organizationId, siteId);
  const f = await store.sites.publicationFile(site!.livePublicationId!, path);
  const bytes = f ? await store.blobs.get(f.hash) : null;
  return bytes ? new TextDecoder().decode(bytes) : null;
}

beforeAll(async () => {
  store = await createTestStore();
  organizationId = (await store.orgs.create({ title: 'Render' })).id;
  const spaceId = (await store.spaces.create(organizationId, { title: 'PostgreSQL' })).id;
  const { tree: base, projectDirectory } = await corpusTree(REPO);
  const index = new TextDecoder().decode(await base.get('documentation/README.md')!.read());
  let tree = withFile(
    base,
    'documentation/.gitbook/includes/note.md',
    '---\ntitle: Note\n---\n\n{% hint style="info" %}\nReusable note :tada: see [the math page](../../' + MATH_PAGE + ')\n{% endhint %}\n',
  );
  tree = withFile(tree, 'documentation/README.md', `${index}\n\n{% include ".gitbook/includes/note.md" %}\n\n{% include ".gitbook/includes/missing.md" %}\n`);
  const imported = await importIntoSpace(store, spaceId, tree, projectDirectory);
  docs = [...allPages(imported.revision.pages)].filter((p): p is DocumentPage => p.kind === 'document');
  const mathPage = docs.find((p): p is DocumentPage => p.kind === 'document' && p.git?.path === `documentation/${MATH_PAGE}`)!;
  mathHref = `${mathPage.path}/`;
  // Every code block highlighted in the first run (a page whose code was left plain is rendered again).
  await loadHighlighter();
  siteId = (await store.sites.create(organizationId, { title: 'PG', spaces: [spaceId] })).id;
  first = (await publishSite(deps(), { organizationId, siteId, requestKey: 'one' }))!;
}, 600_000);

afterAll(async () => {
  await store?.close();
});

describe('math and reusable content in a published corpus space', () => {
  it('typesets every $$ formula with KaTeX; the stylesheet, fonts and math styles are site files', async () => {
    const html = (await file(`${mathHref}index.html`))!;
    const tree = fromHtml(html);
    // The block (a square root over a sum) and the inline formula are typeset, the one in a code fence is not.
    expect(selectAll('.math-display .katex math', tree).length).toBe(1);
    expect(selectAll('.math .katex .sqrt', tree).length).toBe(1);
    expect(selectAll('.math-inline .katex annotation', tree).map((n) => JSON.stringify(n))).toHaveLength(1);
    expect(selectAll('pre code', tree).some((n) => toText(n).includes('$$f(x)'))).toBe(true);
    expect(selectAll('[style]', tree)).toEqual([]);
    expect(html).toContain(`content="${META_CSP}"`);
    expect(META_CSP).toContain("font-src 'self'");
    const sheets = selectAll('link[rel=stylesheet]', tree).map((l) => String(l.properties.href).replace(/^(\.\.\/)+/, ''));
    const katexCss = sheets.find((h) => /^_static\/katex\/[0-9a-f]{16}\/katex\.min\.css$/.test(h))!;
    const mathCss = sheets.find((h) => /^_static\/math\/[0-9a-f]{20}\.css$/.test(h))!;
    const css = (await file(katexCss))!;
    expect(css).toContain('.katex');
    expect(css).not.toMatch(/\.woff\)|\.ttf\)/);
    const fonts = [...css.matchAll(/url\((fonts\/[\w-]+\.woff2)\)/g)].map((m) => m[1]!);
    expect(fonts.length).toBeGreaterThan(10);
    for (const font of new Set(fonts)) expect(await file(katexCss.replace('katex.min.css', font)), font).not.toBeNull();
    const classes = new Set(selectAll('.katex-html *', tree).flatMap((n) => ((n.properties.className as string[]) ?? []).filter((c) => c.startsWith('m-'))));
    const mathRules = (await file(mathCss))!;
    for (const c of classes) expect(mathRules).toContain(`.${c}{`);
    expect(first.warnings.filter((w) => w.code === 'PUBLISH_MATH_INVALID')).toEqual([]);
  });

  it('expands the include (its link resolved from the include file), emoji rendered; the missing one warned', async () => {
    const html = (await file('index.html'))!;
    const hint = selectAll('aside.hint', fromHtml(html)).at(-1)!;
    expect(JSON.stringify(hint)).toContain('Reusable note 🎉 see ');
    expect(html).toContain(`<a href="${mathHref}">the math page</a>`);
    expect(html).not.toContain('{% include');
    expect(first.warnings).toContainEqual(
      expect.objectContaining({ code: 'PUBLISH_INCLUDE_MISSING', message: 'reusable content not found: .gitbook/includes/missing.md' }),
    );
  });

  it('a page reused by the next run keeps its math stylesheet', async () => {
    const site = await store.sites.get(organizationId, siteId);
    const before = new Map((await store.sites.publicationFiles(site!.livePublicationId!)).map((f) => [f.path, f.inputKey]));
    const again = (await publishSite(deps(), { organizationId, siteId, requestKey: 'two' }))!;
    const after = await store.sites.publicationFiles(again.publicationId);
    // This space has pages sharing one address (a "Guides" page in several sections, all at `guides/`): one
    // overwrites the other in every run (its html, rendered again, is staged after the kept files). Every other page is
    // reused, and every twin: a twin is its page's body blob, staged in the site's order (the last page at an address wins).
    const paths = docs.map((p) => p.path);
    const shared = new Set(paths.filter((p, i) => paths.indexOf(p) !== i));
    expect([...shared]).toEqual(['guides']);
    const changed = after.filter((f) => before.get(f.path) !== f.inputKey).map((f) => f.path);
    expect(changed.sort()).toEqual(['guides/index.html']);
    expect(again.rendered).toBe(paths.filter((p) => shared.has(p)).length - shared.size);
    const html = (await file(`${mathHref}index.html`))!;
    const mathCss = /href="(?:\.\.\/)*(_static\/math\/[0-9a-f]{20}\.css)"/.exec(html)![1]!;
    expect(await file(mathCss)).toContain('!important');
  });
});
