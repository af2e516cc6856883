import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedFileHeaders } from '../../src/api/served-file-headers.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';

/**
 * Files served at downloadURL are untrusted bytes: every response has `nosniff` and a `sandbox` CSP; HTML, SVG,
 * XML, XHTML and unknown types are attachments (a safe, encoded filename), inert media stays inline.
 */
const enc = new TextEncoder();
const FILES = [
  { id: 'png', name: 'logo.png', contentType: 'image/png', body: 'PNG' },
  { id: 'svg', name: 'evil.svg', contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"/>' },
  { id: 'html', name: 'Ünïcode "page".html', contentType: 'text/html; charset=utf-8', body: '<script>alert(1)</script>' },
  { id: 'xml', name: 'feed.xml', contentType: 'application/xml', body: '<x/>' },
  { id: 'textxml', name: 'data.xml', contentType: 'text/xml', body: '<x/>' },
  { id: 'xhtml', name: 'page.xhtml', contentType: 'application/xhtml+xml', body: '<html/>' },
  { id: 'unknown', name: 'blob', contentType: 'application/x-whatever', body: '<script>1</script>' },
  { id: 'none', name: 'notype.bin', contentType: undefined, body: '<html>' },
  { id: 'text', name: 'notes.txt', contentType: 'text/plain', body: 'hello' },
] as const;

let folio: TestFolio;
let spaceId: string;
let revisionId: string;

beforeAll(async () => {
  folio = await sharedFolio();
  const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Files' });
  spaceId = created.body.id;
  const revision = await folio.store.revisions.create({
    spaceId,
    parents: [created.body.revision],
    type: 'edits',
    pages: [{ id: 'intro', kind: 'document', title: 'Intro', slug: 'readme', path: '', body: enc.encode('# Intro\n') }],
    files: FILES.map((f) => ({
      id: f.id,
      name: f.name,
      ...(f.contentType ? { contentType: f.contentType } : {}),
      size: enc.encode(f.body).length,
      bytes: enc.encode(f.body),
    })),
  });
  revisionId = revision.id;
  await folio.store.spaces.setPrimaryRevision(spaceId, revisionId);
});

afterAll(async () => {
  await folio?.stop();
});

async function download(fileId: string): Promise<Response> {
  const file = (await folio.request('GET', `/v1/spaces/${spaceId}/content/files/${fileId}`)).body;
  const res = await fetch(file.downloadURL, { headers: { authorization: `Bearer ${folio.token}` } });
  expect(res.status).toBe(200);
  return res;
}

describe('served files', () => {
  it('every file response has X-Content-Type-Options: nosniff and a sandbox CSP', async () => {
    for (const f of FILES) {
      const res = await download(f.id);
      expect(res.headers.get('x-content-type-options'), f.id).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), f.id).toBe('sandbox');
      expect(await res.text(), f.id).toBe(f.body);
    }
  });

  it('HTML, SVG, XML, XHTML and unknown types are attachments; images and plain text stay inline', async () => {
    const disposition = async (id: string) => (await download(id)).headers.get('content-disposition') ?? '';
    for (const id of ['svg', 'html', 'xml', 'textxml', 'xhtml', 'unknown', 'none']) expect(await disposition(id), id).toMatch(/^attachment;/);
    expect(await disposition('png')).toBe(`inline; filename="logo.png"; filename*=UTF-8''logo.png`);
    expect(await disposition('text')).toMatch(/^inline;/);
    // A non-ASCII name with quotes: an ASCII fallback without quotes or backslashes, and the exact name encoded.
    expect(await disposition('html')).toBe(`attachment; filename="_n_code _page_.html"; filename*=UTF-8''${encodeURIComponent('Ünïcode "page".html')}`);
    const svg = await download('svg');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('a malformed stored content type is served as application/octet-stream, as an attachment', () => {
    for (const contentType of ['text/html\r\nSet-Cookie: x=1', 'html', '', 'image/png, text/html']) {
      const headers = servedFileHeaders({ name: 'x', contentType });
      expect(headers['content-type'], contentType).toBe('application/octet-stream');
      expect(headers['content-disposition'], contentType).toMatch(/^attachment;/);
    }
    expect(servedFileHeaders({ name: "a'b(c)*.png", contentType: 'IMAGE/PNG' })['content-disposition']).toBe(
      `inline; filename="a'b(c)*.png"; filename*=UTF-8''a%27b%28c%29%2A.png`,
    );
  });
});
