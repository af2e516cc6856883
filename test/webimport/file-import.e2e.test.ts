/**
 * File import end to end, against the real Temporal dev server and the official client: files uploaded through the
 * spec's signed URLs (`POST /v1/orgs/{org}/storage/upload` → PUT the bytes → a storage key), imported with
 * `source: { type: "file", files: [key…] }` as pages of the target (`.md`, `.html`, `.docx`, a `.zip` in GitBook
 * format), a bad archive failing the run with its typed reason; and `target.page`: imported pages under one page of
 * the primary content or of a change request, every other page and file of the space byte-identical.
 */
import { GitBookAPI } from '@gitbook/api';
import { Document, HeadingLevel, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentImportRun } from '@gitbook/api';
import type { PageRecord } from '../../src/store/index.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { manyEntriesZip, nestedTablesDocx, zerosZip } from '../helpers/hostile-archives.js';
import { assertContract } from '../helpers/openapi-contract.js';

let folio: TestFolio;
let api: GitBookAPI;

// A 1×1 PNG.
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));

beforeAll(async () => {
  folio = await sharedFolio();
  api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
});

afterAll(async () => {
  await folio?.stop();
});

interface ApiPage {
  id: string;
  title: string;
  path?: string;
  pages?: ApiPage[];
}

const flat = (pages: ApiPage[]): ApiPage[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);
const outline = (pages: ApiPage[], depth = 0): string[] =>
  pages.flatMap((p) => [`${'  '.repeat(depth)}${p.title} (${p.path ?? ''})`, ...outline(p.pages ?? [], depth + 1)]);

async function newSpace(title: string): Promise<string> {
  const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

/** Uploads one file the way the spec has it: a signed URL from the official client, then a PUT of the bytes. */
async function upload(name: string, bytes: Uint8Array, type = 'application/octet-stream'): Promise<string> {
  const signed = await api.orgs.generateStorageUploadUrl(folio.organizationId, { file: { name, type, size: bytes.byteLength }, kind: 'import_file' });
  expect(signed.status).toBe(201);
  assertContract('POST', `/orgs/${folio.organizationId}/storage/upload`, 201, signed.data);
  const put = await fetch(signed.data.url, { method: 'PUT', headers: { 'content-type': type }, body: bytes });
  expect(put.status, await put.clone().text()).toBe(200);
  return signed.data.key;
}

async function runToEnd(target: { space: string; changeRequest?: string; page?: string }, files: string[]): Promise<ContentImportRun> {
  const started = await api.org.startImportRun(folio.organizationId, { source: { type: 'file', files }, target });
  expect(started.status).toBe(201);
  assertContract('POST', `/org/${folio.organizationId}/imports`, 201, started.data);
  const deadline = Date.now() + 120_000;
  let run = started.data;
  while (run.status === 'pending' || run.status === 'in-progress') {
    if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 250));
    run = (await api.org.getImportRun(folio.organizationId, run.id)).data;
  }
  assertContract('GET', `/org/${folio.organizationId}/imports/${run.id}`, 200, run);
  return run;
}

async function docxBytes(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Quarterly report', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun('Revenue grew by '), new TextRun({ text: 'twelve percent', bold: true }), new TextRun('.')] }),
          new Paragraph({ children: [new ImageRun({ type: 'png', data: PNG, transformation: { width: 10, height: 10 } })] }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

const spaceZip = () =>
  zipSync({
    'my-space/SUMMARY.md': strToU8(
      '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n* [Zeta](zeta.md)\n',
    ),
    'my-space/README.md': strToU8('# Welcome\n\nSee the [guide](guide/README.md).\n'),
    'my-space/guide/README.md': strToU8('# Guide\n\n![logo](../.gitbook/assets/logo.png)\n'),
    'my-space/guide/install.md': strToU8('# Install\n\n```bash\nnpm install folio\n```\n'),
    'my-space/zeta.md': strToU8('# Zeta\n\nLast.\n'),
    'my-space/.gitbook/assets/logo.png': PNG,
  });

/** Every page record of a revision, by id, with where it sits (parent, position). */
async function records(revisionId: string): Promise<Map<string, PageRecord>> {
  const out = new Map<string, PageRecord>();
  const walk = (list: PageRecord[]) => {
    for (const p of list) {
      out.set(p.id, p);
      walk(p.children);
    }
  };
  walk(await folio.store.revisions.pages(revisionId));
  return out;
}

/** What must not change of a page: everything but its children. */
const pageFacts = ({ children: _children, ...rest }: PageRecord) => rest;

describe('file import', () => {
  it('imports uploaded .md, .html, .docx and .zip files as pages, in the order given, through the official client', async () => {
    const spaceId = await newSpace('Files');
    const md = '# Getting started\n\nInstall it.\n';
    const html =
      '<html><head><title>API guide · Book</title><meta name="description" content="How to call it"></head>' +
      '<body><main><h1>API guide</h1><p>Call <code>GET /x</code>.</p><pre><code class="language-bash">curl -s https://example.test/x\n</code></pre></main></body></html>';
    const keys = [
      await upload('getting-started.md', strToU8(md), 'text/markdown'),
      await upload('api.html', strToU8(html), 'text/html'),
      await upload('Report Q3.docx', await docxBytes(), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
      await upload('handbook.zip', spaceZip(), 'application/zip'),
    ];
    expect(new Set(keys).size).toBe(4);

    const run = await runToEnd({ space: spaceId }, keys);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', source: { type: 'file', files: keys }, target: { space: spaceId } });
    const progress = run as unknown as { importedResources: number; totalResources: number; revision: string };
    expect(progress.importedResources).toBe(4);
    expect(progress.totalResources).toBe(4);

    const listed = await api.org.listImportRuns(folio.organizationId, { space: spaceId });
    assertContract('GET', `/org/${folio.organizationId}/imports`, 200, listed.data);
    expect(listed.data.items.map((r) => r.id)).toEqual([run.id]);

    const space = await folio.request('GET', `/v1/spaces/${spaceId}`);
    expect(space.body.revision).toBe(progress.revision);
    const pages = await folio.request('GET', `/v1/spaces/${spaceId}/content/pages`);
    expect(outline(pages.body.pages)).toEqual([
      'Getting started (getting-started)',
      'API guide (api)',
      'Quarterly report (Report-Q3)',
      // A zip given with other files is a group (a group adds no segment to its pages' paths).
      'handbook (handbook)',
      '  Welcome (handbook)',
      '  Guide (guide)',
      '    Install (guide/install)',
      '  Zeta (zeta)',
    ]);
    const byTitle = (t: string) => flat(pages.body.pages).find((p) => p.title === t)!;
    const markdownOf = async (t: string) =>
      (await folio.request('GET', `/v1/spaces/${spaceId}/content/page/${byTitle(t).id}?format=markdown`)).body.markdown as string;
    expect(await markdownOf('Getting started')).toContain('Install it.');
    expect(await markdownOf('API guide')).toContain('```bash\ncurl -s https://example.test/x\n```');
    expect(await markdownOf('Quarterly report')).toContain('Revenue grew by **twelve percent**.');
    expect(await markdownOf('Install')).toContain('npm install folio');
    const files = await folio.request('GET', `/v1/spaces/${spaceId}/content/files`);
    // The .docx image, and the zip's logo (moved to the root's assets with the page's path to it).
    expect((files.body.items as Array<{ name: string }>).length).toBe(2);
    expect(await markdownOf('Guide')).toContain('](../../.gitbook/assets/handbook/logo.png)');
  });

  it('a bad archive fails the run with its typed reason and leaves the space unchanged', async () => {
    const spaceId = await newSpace('Bad zip');
    const before = (await folio.request('GET', `/v1/spaces/${spaceId}`)).body.revision;
    const key = await upload('evil.zip', zipSync({ 'ok.md': strToU8('# ok\n'), '../evil.md': strToU8('x') }), 'application/zip');
    const run = await runToEnd({ space: spaceId }, [key]);
    expect(run.status).toBe('failed');
    expect(run.reason).toMatch(/^FILE_IMPORT_ZIP_UNSAFE_PATH: /);
    expect((await folio.request('GET', `/v1/spaces/${spaceId}`)).body.revision).toBe(before);
  });

  it('a corrupt, bombed, crowded or too deeply nested archive fails the run with its typed reason, never completed empty', async () => {
    const spaceId = await newSpace('Hostile archives');
    const before = (await folio.request('GET', `/v1/spaces/${spaceId}`)).body.revision;
    const good = spaceZip();
    const cases: Array<[string, Uint8Array, RegExp]> = [
      // A truncated zip and "PK" followed by junk completed with 0 pages before.
      ['truncated.zip', good.slice(0, good.length >> 1), /^FILE_IMPORT_ZIP_INVALID: truncated\.zip is not a readable zip archive: no end of central directory/],
      ['junk.zip', Uint8Array.from([0x50, 0x4b, 3, 4, ...new Array<number>(200).fill(7)]), /^FILE_IMPORT_ZIP_INVALID: /],
      [
        'zeros.zip',
        zerosZip('zeros.md', 500 * 1024 * 1024),
        /^FILE_IMPORT_ZIP_TOO_LARGE: zeros\.zip unpacks to 524288000 bytes, .*FILE_IMPORT_MAX_UNPACKED_BYTES/,
      ],
      ['many.zip', manyEntriesZip(25_000), /^FILE_IMPORT_ZIP_TOO_MANY_ENTRIES: many\.zip holds 25000 entries, more than the 20000 .*FILE_IMPORT_MAX_ENTRIES/],
      ['deep.docx', await nestedTablesDocx(20_000), /^FILE_IMPORT_DOCX_TOO_DEEP: deep\.docx nests its content deeper than 256 XML elements/],
    ];
    for (const [name, bytes, reason] of cases) {
      const key = await upload(name, bytes, 'application/zip');
      const run = await runToEnd({ space: spaceId }, [key]);
      expect(run.status, `${name}: ${JSON.stringify(run)}`).toBe('failed');
      expect(run.reason, name).toMatch(reason);
    }
    expect((await folio.request('GET', `/v1/spaces/${spaceId}`)).body.revision).toBe(before);
  });

  it('refuses what cannot be imported with clear 4xx errors', async () => {
    const spaceId = await newSpace('Refused');
    const base = `/v1/org/${folio.organizationId}/imports`;
    const refuse = async (body: unknown, status: number, code: string | number, word: string) => {
      const res = await folio.request('POST', base, body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.message.toLowerCase()).toContain(word);
      return res;
    };
    await refuse({ source: { type: 'file', files: ['org/nope/import/x/a.md'] }, target: { space: spaceId } }, 400, 400, 'no uploaded file');
    await refuse({ source: { type: 'file', files: [] }, target: { space: spaceId } }, 400, 400, 'storage keys');
    await refuse({ source: { type: 'file', files: Array.from({ length: 51 }, (_, i) => `k${i}`) }, target: { space: spaceId } }, 400, 400, 'at most 50');

    // A signed URL whose bytes were never put; then a PUT of the wrong size; then the right one, once.
    const signed = await folio.request('POST', `/v1/orgs/${folio.organizationId}/storage/upload`, {
      file: { name: 'late.md', type: 'text/markdown', size: 5 },
      kind: 'import_file',
    });
    expect(signed.status).toBe(201);
    await refuse({ source: { type: 'file', files: [signed.body.key] }, target: { space: spaceId } }, 400, 400, 'not uploaded yet');
    expect((await fetch(signed.body.url, { method: 'PUT', body: 'too long' })).status).toBe(400);
    expect((await fetch(signed.body.url, { method: 'PUT', body: '# Hi\n' })).status).toBe(200);
    expect((await fetch(signed.body.url, { method: 'PUT', body: '# Hi\n' })).status).toBe(409);
    expect((await fetch(`${folio.baseUrl}/storage/uploads/${'x'.repeat(43)}`, { method: 'PUT', body: '# Hi\n' })).status).toBe(404);

    // Files over the bytes one import takes, together (sizes as announced and checked at upload).
    const big = await Promise.all(
      [0, 1].map(async (i) => {
        const key = `org/${folio.organizationId}/import/big${i}/part.zip`;
        await folio.store.uploads.create({
          key,
          organizationId: folio.organizationId,
          kind: 'import_file',
          name: 'part.zip',
          contentType: 'application/zip',
          size: 300 * 1024 * 1024,
          tokenHash: `big-${i}-${Date.now()}`,
          expiresAt: new Date(Date.now() + 60_000),
        });
        await folio.store.uploads.complete(key, strToU8('stand-in bytes'));
        return key;
      }),
    );
    await refuse({ source: { type: 'file', files: big }, target: { space: spaceId } }, 400, 400, 'at most');

    // Upload requests the server does not keep, or too large.
    const font = await folio.request('POST', `/v1/orgs/${folio.organizationId}/storage/upload`, {
      file: { name: 'f.woff2', type: 'font/woff2', size: 10 },
      kind: 'customization_font',
    });
    expect(font.status).toBe(400);
    const huge = await folio.request('POST', `/v1/orgs/${folio.organizationId}/storage/upload`, {
      file: { name: 'big.zip', type: 'application/zip', size: 1e10 },
      kind: 'import_file',
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toContain('limit');
  });
});

describe('import under a page (target.page)', () => {
  it('puts the imported pages under the page, the rest of the primary content byte-identical', async () => {
    const spaceId = await newSpace('Under a page');
    const first = await runToEnd({ space: spaceId }, [await upload('handbook.zip', spaceZip(), 'application/zip')]);
    expect(first.status).toBe('completed');
    const baseRevision = (first as unknown as { revision: string }).revision;
    const before = await records(baseRevision);
    const beforeFiles = await folio.store.revisions.files(baseRevision);
    const guide = [...before.values()].find((p) => p.title === 'Guide')!;

    const run = await runToEnd({ space: spaceId, page: guide.id }, [
      await upload('faq.md', strToU8('# FAQ\n\nSee [the readme](README.md).\n'), 'text/markdown'),
      await upload('install.md', strToU8('# Another install\n\nSame slug as a sibling.\n'), 'text/markdown'),
    ]);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', target: { space: spaceId, page: guide.id } });
    const revision = (run as unknown as { revision: string }).revision;
    expect((await folio.request('GET', `/v1/spaces/${spaceId}`)).body.revision).toBe(revision);

    const pages = await folio.request('GET', `/v1/spaces/${spaceId}/content/pages`);
    expect(outline(pages.body.pages)).toEqual([
      'Welcome ()',
      'Guide (guide)',
      '  Install (guide/install)',
      '  FAQ (guide/faq)',
      '  Another install (guide/another-install)',
      'Zeta (zeta)',
    ]);
    // Every page of the base is the same record (id, slug, path, data, body blob, place); its files too.
    const after = await records(revision);
    for (const [id, page] of before) expect(pageFacts(after.get(id)!), page.title).toEqual(pageFacts(page));
    for (const [id, page] of before)
      expect(await folio.store.revisions.pageBody(revision, id)).toEqual(await folio.store.revisions.pageBody(baseRevision, page.id));
    const afterFiles = await folio.store.revisions.files(revision);
    expect(afterFiles.slice(0, beforeFiles.length)).toEqual(beforeFiles);
    expect(
      after
        .get(guide.id)!
        .children.map((c) => c.id)
        .slice(0, guide.children.length),
    ).toEqual(guide.children.map((c) => c.id));
  });

  it('under a page of a change request: the change request changes, the primary content does not', async () => {
    const spaceId = await newSpace('Under a CR page');
    await runToEnd({ space: spaceId }, [await upload('handbook.zip', spaceZip(), 'application/zip')]);
    const primary = (await folio.request('GET', `/v1/spaces/${spaceId}`)).body.revision as string;
    const cr = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Import notes' });
    expect(cr.status, JSON.stringify(cr.body)).toBe(201);
    const zeta = [...(await records(primary)).values()].find((p) => p.title === 'Zeta')!;
    const run = await runToEnd({ space: spaceId, changeRequest: cr.body.id, page: zeta.id }, [await upload('notes.md', strToU8('# Notes\n'), 'text/markdown')]);
    expect(run.status, JSON.stringify(run)).toBe('completed');
    expect((await folio.request('GET', `/v1/spaces/${spaceId}`)).body.revision).toBe(primary);
    const crPages = await folio.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/pages`);
    expect(outline(crPages.body.pages)).toContain('  Notes (zeta/notes)');
  });

  it('an unknown page is a 404 and starts no run', async () => {
    const spaceId = await newSpace('Unknown page');
    const res = await folio.request('POST', `/v1/org/${folio.organizationId}/imports`, {
      source: { type: 'website', url: 'http://127.0.0.1:9/' },
      target: { space: spaceId, page: 'no-such-page' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(res.body.error.message).toContain('no-such-page');
    const runs = await folio.request('GET', `/v1/org/${folio.organizationId}/imports?space=${spaceId}`);
    expect(runs.body.items).toEqual([]);
  });
});
