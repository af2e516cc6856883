/**
 * Issue 25, items 8–10 on a published site: a space whose SUMMARY.md and pages hold links with hostile schemes
 * (`javascript:`, `vbscript:`, `data:`, hidden by case, tabs and character references) is published, served and
 * written by `folio site export`: no page, sidebar included, has a link with another scheme than http, https or
 * mailto, and every exported HTML file carries the served Content Security Policy as a `<meta>`. The deployment's
 * public URL is https: the share cookie is `Secure`. The access log (the API's own logger, captured) holds neither a
 * share link's key nor a signed upload URL's secret.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fromHtml } from 'hast-util-from-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeFromFiles } from '../../src/format/index.js';
import { createLogger } from '../../src/log.js';
import { PAGE_CSP } from '../../src/publish/csp.js';
import { writeSiteToDirectory } from '../../src/publish/write-directory.js';
import { publishWorkflowId, type PublishSiteResult } from '../../src/temporal/contract/index.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { importIntoSpace } from './corpus-space.js';

const HOSTILE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(2)',
  '&#106;avascript:alert(3)',
  'javascript&colon;alert(4)',
  'vbscript:msgbox(5)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCg2KTwvc2NyaXB0Pg==',
  '<java\tscript:alert(7)>',
];

const SUMMARY = [
  '# Table of contents',
  '',
  '* [Home](README.md)',
  '* [Guide](guide.md)',
  ...HOSTILE.map((url, i) => `* [Evil ${i}](${url})`),
  '* [Example](https://example.com/)',
  '',
].join('\n');

const GUIDE = [
  '# Guide',
  '',
  ...HOSTILE.map((url, i) => `A [link ${i}](${url}) and an ![image ${i}](${url}).\n`),
  '<a href="java&#x09;script:alert(8)">raw</a> <img src="data:image/svg+xml,&lt;svg onload=alert(9)&gt;" alt="raw image">',
  '',
  '{% embed url="javascript:alert(10)" %}',
  '',
].join('\n');

const logLines: string[] = [];
let folio: TestFolio;
let spaceId: string;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  folio = await startFolio({
    env: { FOLIO_PUBLIC_URL: 'https://docs.example.test' },
    logger: createLogger('folio', { level: 'info', pretty: false, destination }),
  });
  spaceId = (await folio.store.spaces.create(folio.organizationId, { title: 'Hostile' })).id;
  const tree = treeFromFiles({ 'SUMMARY.md': SUMMARY, 'README.md': '# Home\n\nWelcome.\n', 'guide.md': GUIDE });
  await importIntoSpace(folio.store, spaceId, tree, '');
}, 120_000);

afterAll(async () => {
  await folio?.stop();
});

async function publish(siteId: string): Promise<PublishSiteResult> {
  const res = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites/${siteId}/publish`);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return folio.client.workflow.getHandle(publishWorkflowId(siteId)).result();
}

/** Every address an element of the HTML carries (href, src, action, …), as a browser reads the attribute. */
function addresses(html: string): string[] {
  const out: string[] = [];
  type Node = { type: string; tagName?: string; properties?: Record<string, unknown>; children?: Node[] };
  const walk = (node: Node) => {
    for (const key of ['href', 'src', 'action', 'formAction', 'poster', 'data', 'srcSet', 'content']) {
      const v = node.properties?.[key];
      if (key === 'content' && node.tagName !== 'meta') continue;
      if (typeof v === 'string') out.push(v);
    }
    for (const c of node.children ?? []) walk(c);
  };
  walk(fromHtml(html) as Node);
  return out;
}

/** What a browser would run or render as a document: any scheme other than http, https and mailto. */
function refused(address: string): boolean {
  const form = address.replace(/[\t\n\r]/g, '').trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(form)?.[1]?.toLowerCase();
  return scheme !== undefined && !['http', 'https', 'mailto'].includes(scheme);
}

describe('a published site of hostile content', () => {
  it('has no link with a refused scheme in any served or exported page; exported pages carry the CSP as a <meta>', async () => {
    const site = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites`, { title: 'Hostile', visibility: 'public', spaces: [spaceId] });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    const result = await publish(site.body.id);
    expect(result.last?.warningCodes).toContain('PUBLISH_BROKEN_LINK');

    const base = `${folio.baseUrl}/sites/${site.body.basename}/`;
    const pages = [base, `${base}guide/`];
    for (const url of pages) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
      const html = await res.text();
      expect(html).toContain('Evil 0');
      expect(html).toContain('<a href="https://example.com/">Example</a>');
      expect(addresses(html).filter(refused), url).toEqual([]);
    }

    const out = await mkdtemp(path.join(tmpdir(), 'folio-hostile-site-'));
    try {
      const record = (await folio.store.sites.get(folio.organizationId, site.body.id))!;
      await writeSiteToDirectory(folio.store, record, out);
      const htmlFiles = (await readdir(out, { recursive: true })).filter((f) => f.endsWith('.html'));
      expect(htmlFiles.length).toBeGreaterThanOrEqual(3);
      for (const file of htmlFiles) {
        const html = await readFile(path.join(out, file), 'utf8');
        const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
        expect(meta?.[1], file).toBe(PAGE_CSP.replace("; frame-ancestors 'self'", ''));
        // Before anything the policy governs.
        expect(html.indexOf('Content-Security-Policy'), file).toBeLessThan(html.search(/<link|<title|<body/));
        expect(
          addresses(html).filter((a) => refused(a) && !a.startsWith("default-src 'none'")),
          file,
        ).toEqual([]);
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 300_000);

  let shareKey = '';

  it('sets the share cookie Secure on an https deployment', async () => {
    const org = folio.organizationId;
    const site = await folio.request('POST', `/v1/orgs/${org}/sites`, { title: 'Shared', visibility: 'share-link', spaces: [spaceId] });
    await publish(site.body.id);
    const link = await folio.request('POST', `/v1/orgs/${org}/sites/${site.body.id}/share-links`, { name: 'reviewers' });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    shareKey = new URL(link.body.urls.published as string).searchParams.get('share')!;
    expect(shareKey.length).toBeGreaterThan(10);
    const served = await fetch(`${folio.baseUrl}/sites/${site.body.basename}/?share=${encodeURIComponent(shareKey)}`);
    expect(served.status).toBe(200);
    // The redirect of the site's bare address keeps the key in its query (logged, see below).
    expect((await fetch(`${folio.baseUrl}/sites/${site.body.basename}?share=${encodeURIComponent(shareKey)}`, { redirect: 'manual' })).status).toBe(301);
    const cookie = served.headers.get('set-cookie')!;
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toMatch(/; Secure(;|$)/);
  }, 300_000);

  it('keeps share keys and signed upload secrets out of the access log', async () => {
    const org = folio.organizationId;
    expect(shareKey).not.toBe('');
    const signed = await folio.request('POST', `/v1/orgs/${org}/storage/upload`, {
      file: { name: 'a.md', type: 'text/markdown', size: 5 },
      kind: 'import_file',
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    const secret = new URL(signed.body.url as string).pathname.split('/').pop()!;
    const put = await fetch(`${folio.baseUrl}/storage/uploads/${secret}`, { method: 'PUT', body: '# Hi\n', headers: { 'content-type': 'text/markdown' } });
    expect(put.status).toBe(200);
    // A second PUT (409) and a wrong method (404) are logged too.
    expect((await fetch(`${folio.baseUrl}/storage/uploads/${secret}`, { method: 'PUT', body: '# Hi\n' })).status).toBe(409);
    expect((await fetch(`${folio.baseUrl}/storage/uploads/${secret}?x=1`, { method: 'POST', body: '' })).status).toBe(404);
    const key = shareKey;

    await new Promise((r) => setTimeout(r, 200));
    const access = logLines.filter((l) => l.includes('"component":"http"'));
    expect(logLines.filter((l) => l.includes(key))).toEqual([]);
    expect(logLines.filter((l) => l.includes(secret))).toEqual([]);
    expect(access.some((l) => l.includes('/storage/uploads/***'))).toBe(true);
    expect(access.some((l) => l.includes('share=***'))).toBe(true);
  }, 300_000);
});
