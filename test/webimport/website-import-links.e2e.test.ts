/**
 * Issue 25, item 8 for website imports: a site whose pages link with `javascript:`, `vbscript:` and `data:` URLs
 * (hidden by case, tabs and character references) and embed a `data:` image is imported on the real Temporal dev
 * server. The stored markdown keeps each link's text and none of those URLs; the `data:` image is a space file the
 * page links to; the run says what was refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePageFile } from '../../src/format/index.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { PNG, startDocSite, type DocSite, type SitePage } from './doc-site.js';

let folio: TestFolio;
let site: DocSite;

const HOSTILE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(2)',
  'java&#x09;script:alert(3)',
  '&#106;avascript:alert(4)',
  'javascript&colon;alert(5)',
  'vbscript:msgbox(6)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCg3KTwvc2NyaXB0Pg==',
];

const PAGES: SitePage[] = [
  {
    path: '/x1/',
    title: 'Start',
    body: `<h1>Start</h1><p>Go to the <a href="next.html">next page</a>.</p>${HOSTILE.map((h, i) => `<p><a href="${h}">link ${i}</a></p>`).join('')}`,
  },
  {
    path: '/x1/next.html',
    title: 'Next',
    body: `<h1>Next</h1><p><img src="data:image/png;base64,${PNG.toString('base64')}" alt="inline pixel"></p><p><img src="javascript:alert(8)" alt="scripted"></p>`,
  },
];

beforeAll(async () => {
  site = await startDocSite({ x1: PAGES });
  folio = await sharedFolio({ loopback: true });
});

afterAll(async () => {
  await folio?.stop();
  await site?.stop();
});

/** Every destination of a page's markdown, as a reader of the markdown sees it. */
function destinations(markdown: string): string[] {
  const out: string[] = [];
  const walk = (node: { type: string; url?: string; value?: string; children?: unknown[] }) => {
    if (typeof node.url === 'string') out.push(node.url);
    if (node.type === 'html' && node.value) for (const m of node.value.matchAll(/(?:src|href)="([^"]*)"/g)) out.push(m[1]!);
    for (const c of (node.children ?? []) as Array<typeof node>) walk(c);
  };
  walk(parsePageFile(markdown).document as never);
  return out;
}

describe('website import and the URL policy', () => {
  it('stores no link with a refused scheme; a data: image becomes a space file', async () => {
    const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Hostile site' });
    const spaceId = created.body.id as string;
    const res = await folio.request('POST', `/v1/spaces/${spaceId}/content/import`, { url: `${site.base}/x1/`, source: 'website' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    const pages = await folio.store.revisions.pages(res.body.revision);
    const all = pages.flatMap((p) => [p, ...p.children]);
    expect(all.map((p) => p.title)).toEqual(['Start', 'Next']);
    const markdownOf = async (title: string) => {
      const page = all.find((p) => p.title === title)!;
      return new TextDecoder().decode((await folio.store.revisions.pageBody(res.body.revision, page.id))!);
    };
    const start = await markdownOf('Start');
    for (let i = 0; i < HOSTILE.length; i++) expect(start).toContain(`link ${i}`);
    expect(destinations(start)).toEqual(['next.md']);
    expect(start.toLowerCase()).not.toMatch(/script:|vbscript|data:|&#/);

    const next = await markdownOf('Next');
    expect(next).toContain('scripted');
    expect(next).not.toContain('data:');
    const [image] = destinations(next);
    expect(image).toMatch(/^\.gitbook\/assets\/inline\/[0-9a-f]{16}\.png$/);
    const files = await folio.request('GET', `/v1/spaces/${spaceId}/content/files`);
    const file = (files.body.items as Array<{ name: string; downloadURL: string }>).find((f) => image!.endsWith(f.name));
    expect(file, JSON.stringify(files.body.items)).toBeDefined();
    const revisionFiles = await folio.store.revisions.files(res.body.revision);
    const stored = revisionFiles.find((f) => image!.endsWith(f.name))!;
    expect(Buffer.from((await folio.store.blobs.get(stored.hash))!)).toEqual(PNG);

    const runs = await folio.request('GET', `/v1/org/${folio.organizationId}/imports?space=${spaceId}`);
    const codes = (runs.body.items[0].warnings as Array<{ code: string }>).map((w) => w.code);
    expect(codes).toContain('webimport.link_refused');
    expect(codes).toContain('webimport.image_refused');
  }, 300_000);
});
