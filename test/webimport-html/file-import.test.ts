import { Document, ExternalHyperlink, HeadingLevel, ImageRun, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { zipSync, strToU8 } from 'fflate';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { allPages, importTree, type PageModel, type RevisionModel, type SourceTree } from '../../src/format/index.js';
import { DEFAULT_FILE_IMPORT_LIMITS, filesToSourceTree, ZipInvalidError, ZipTooLargeError, ZipUnsafePathError } from '../../src/fileimport/index.js';

// A 1×1 PNG.
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));

const text = (tree: SourceTree, path: string): Promise<string> =>
  tree
    .get(path)!
    .read()
    .then((b) => new TextDecoder().decode(b));
const titles = (revision: RevisionModel): string[] => [...allPages(revision.pages)].map((p: PageModel) => p.title);
const markdownOf = (revision: RevisionModel, title: string): string => {
  const page = [...allPages(revision.pages)].find((p: PageModel) => p.title === title);
  return page && 'markdown' in page ? (page.markdown ?? '') : '';
};

async function docxBytes(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Quarterly report', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun('Revenue grew by '), new TextRun({ text: 'twelve percent', bold: true }), new TextRun('.')] }),
          new Paragraph({ text: 'Details', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ children: [new ImageRun({ type: 'png', data: PNG, transformation: { width: 10, height: 10 } })] }),
          new Paragraph({ children: [new ImageRun({ type: 'png', data: PNG, transformation: { width: 20, height: 20 } })] }),
          new Table({
            rows: [
              new TableRow({ children: [new TableCell({ children: [new Paragraph('Region')] }), new TableCell({ children: [new Paragraph('Sales')] })] }),
              new TableRow({ children: [new TableCell({ children: [new Paragraph('North')] }), new TableCell({ children: [new Paragraph('42')] })] }),
            ],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

describe('file import', () => {
  it('turns .md, .html and .docx files into pages in upload order, images of the .docx as space files', async () => {
    const md = '---\ndescription: Kept as written\n---\n\n# Getting started\n\nInstall it.\n';
    const html =
      '<html><head><title>API guide · Book</title><meta name="description" content="How to call it"><meta name="generator" content="HonKit 6.1.7"></head>' +
      '<body><div class="book"><div class="book-summary"><ul class="summary"><li class="chapter"><a href="a.html">A</a></li></ul></div>' +
      '<div class="page-inner"><section class="normal markdown-section"><h1 id="api-guide">API guide</h1><p>Call <code>GET /x</code>.</p>' +
      '<pre><code class="lang-bash">curl -s https://example.test/x\n</code></pre></section></div></div></body></html>';
    const { tree, warnings } = await filesToSourceTree([
      { name: 'getting-started.md', bytes: strToU8(md) },
      { name: 'api.html', bytes: strToU8(html) },
      { name: 'Report Q3.docx', bytes: await docxBytes() },
      { name: 'data.bin', bytes: Uint8Array.from([0, 1, 2]) },
    ]);
    expect(await text(tree, 'getting-started.md')).toBe(md); // byte for byte
    expect(await text(tree, 'api.md')).toBe(
      '---\ndescription: "How to call it"\n---\n\n# API guide\n\nCall `GET /x`.\n\n```bash\ncurl -s https://example.test/x\n```\n',
    );
    const images = [...tree.keys()].filter((p) => p.startsWith('.gitbook/assets/') && p.endsWith('.png'));
    expect(images).toHaveLength(1); // the same image twice is one file
    expect(await tree.get(images[0]!)!.read()).toEqual(PNG);
    expect(tree.has('.gitbook/assets/data.bin')).toBe(true);
    expect(warnings.map((w) => w.code)).toEqual(['FILE_IMPORT_UNSUPPORTED_TYPE']);

    const { revision } = await importTree(tree);
    expect(titles(revision)).toEqual(['Getting started', 'API guide', 'Quarterly report']);
    const report = markdownOf(revision, 'Quarterly report');
    expect(report).toContain('Revenue grew by **twelve percent**.');
    expect(report).toContain('## Details');
    expect(report).toContain(`](${images[0]})`);
    expect(report).toMatch(/\| Region +\| Sales +\|/);
    expect(revision.files.map((f) => f.path)).toContain(images[0]);
  });

  it('keeps only http, https, mailto, relative and anchor links of .html and .docx files; data: images become files', async () => {
    const html =
      '<html><head><title>Hostile</title></head><body><main><h1>Hostile</h1>' +
      '<p><a href="javascript:alert(1)">click</a>, <a href="JaVa&#x09;ScRiPt:alert(2)">tab</a>, <a href="&#x6A;avascript:alert(3)">ref</a>, ' +
      '<a href="vbscript:x">vb</a>, <a href="data:text/html,&lt;script&gt;alert(4)&lt;/script&gt;">data</a>, <a href="https://ok.test/">ok</a></p>' +
      `<p><img src="data:image/png;base64,${Buffer.from(PNG).toString('base64')}" alt="pixel"></p></main></body></html>`;
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Linked', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ children: [new ExternalHyperlink({ link: 'javascript:alert(5)', children: [new TextRun('docx click')] })] }),
          ],
        },
      ],
    });
    const { tree, warnings } = await filesToSourceTree([
      { name: 'hostile.html', bytes: strToU8(html) },
      { name: 'linked.docx', bytes: new Uint8Array(await Packer.toBuffer(doc)) },
    ]);
    const page = await text(tree, 'hostile.md');
    const docx = await text(tree, 'linked.md');
    for (const word of ['click', 'tab', 'ref', 'vb', 'data']) expect(page).toContain(word);
    expect(docx).toContain('docx click');
    expect(`${page}\n${docx}`).not.toMatch(/javascript|vbscript|data:|&#x6a;/i);
    expect(page).toContain('[ok](https://ok.test/)');
    const inline = [...tree.keys()].filter((p) => p.startsWith('.gitbook/assets/inline/'));
    expect(inline).toHaveLength(1);
    expect(await tree.get(inline[0]!)!.read()).toEqual(PNG);
    expect(page).toContain(`![pixel](${inline[0]})`);
    expect(warnings.filter((w) => w.code === 'FILE_IMPORT_LINK_REFUSED').map((w) => w.file)).toEqual(['hostile.html', 'linked.docx']);
    const { revision } = await importTree(tree);
    expect(revision.files.map((f) => f.path)).toContain(inline[0]);
  });

  it('reads a zip of a space in GitBook format as the whole tree, its SUMMARY.md order kept', async () => {
    const zip = zipSync({
      'my-space/SUMMARY.md': strToU8('# Table of contents\n\n* [Welcome](README.md)\n* [Zeta first](zeta.md)\n* [Alpha second](alpha.md)\n'),
      'my-space/README.md': strToU8('# Welcome\n\n{% hint style="info" %}\nHi\n{% endhint %}\n'),
      'my-space/zeta.md': strToU8('# Zeta first\n\n![](.gitbook/assets/pic.png)\n'),
      'my-space/alpha.md': strToU8('# Alpha second\n'),
      'my-space/.gitbook/assets/pic.png': PNG,
    });
    const { tree } = await filesToSourceTree([{ name: 'export.zip', bytes: zip }]);
    expect([...tree.keys()].sort()).toEqual(['.gitbook/assets/pic.png', 'README.md', 'SUMMARY.md', 'alpha.md', 'zeta.md']);
    const { revision } = await importTree(tree);
    expect(titles(revision)).toEqual(['Welcome', 'Zeta first', 'Alpha second']);
    expect(revision.files).toHaveLength(1);
  });

  it('puts a zip uploaded with other files under a group of its own', async () => {
    const zip = zipSync({ 'SUMMARY.md': strToU8('* [One](one.md)\n'), 'one.md': strToU8('# One\n') });
    const { tree } = await filesToSourceTree([
      { name: 'intro.md', bytes: strToU8('# Intro\n') },
      { name: 'guides.zip', bytes: zip },
    ]);
    expect(await text(tree, 'SUMMARY.md')).toBe('# Table of contents\n\n* [Intro](intro.md)\n\n## guides\n\n* [One](guides/one.md)\n');
    const { revision } = await importTree(tree);
    expect(revision.pages.map((p) => `${p.kind}:${p.title}`)).toEqual(['document:Intro', 'group:guides']);
    expect(titles(revision)).toEqual(['Intro', 'guides', 'One']);
  });

  it("moves a grouped zip's space files to the root's .gitbook/assets and its pages' paths to them with them", async () => {
    const zip = zipSync({
      'SUMMARY.md': strToU8('* [Top](README.md)\n* [Deep](guide/deep.md)\n'),
      'README.md': strToU8('# Top\n\n![a](.gitbook/assets/a.png)\n'),
      'guide/deep.md': strToU8(
        '# Deep\n\n![a](../.gitbook/assets/a.png)\n\n{% file src="../.gitbook/assets/a.png" %}\n\n[not ours](../../.gitbook/assets/a.png)\n',
      ),
      '.gitbook/assets/a.png': PNG,
    });
    const { tree } = await filesToSourceTree([
      { name: 'intro.md', bytes: strToU8('# Intro\n') },
      { name: 'guides.zip', bytes: zip },
    ]);
    expect(tree.has('.gitbook/assets/guides/a.png')).toBe(true);
    expect(await text(tree, 'guides/README.md')).toBe('# Top\n\n![a](../.gitbook/assets/guides/a.png)\n');
    expect(await text(tree, 'guides/guide/deep.md')).toBe(
      '# Deep\n\n![a](../../.gitbook/assets/guides/a.png)\n\n{% file src="../../.gitbook/assets/guides/a.png" %}\n\n[not ours](../../.gitbook/assets/a.png)\n',
    );
    const { revision } = await importTree(tree);
    expect(revision.files.map((f) => f.path)).toEqual(['.gitbook/assets/guides/a.png']);
    expect(markdownOf(revision, 'Deep')).toContain('![a](../../.gitbook/assets/guides/a.png)');
  });

  it('refuses zip entries that leave the archive', async () => {
    for (const name of ['../evil.md', 'docs/../../evil.md', '/etc/passwd', 'C:/evil.md', 'a\\..\\..\\evil.md']) {
      const zip = zipSync({ 'ok.md': strToU8('# ok\n'), [name]: strToU8('x') });
      await expect(filesToSourceTree([{ name: 'x.zip', bytes: zip }]), name).rejects.toBeInstanceOf(ZipUnsafePathError);
    }
  });

  it('refuses a zip bomb over the byte limit before inflating, and stops an entry inflating past its declared size', async () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const bomb = zipSync({ 'big.md': zeros }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const limits = { ...DEFAULT_FILE_IMPORT_LIMITS, maxZipBytes: 1024 * 1024 };
    const error = await filesToSourceTree([{ name: 'bomb.zip', bytes: bomb }], limits).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZipTooLargeError);
    expect(error).toMatchObject({ code: 'FILE_IMPORT_ZIP_TOO_LARGE', retryable: false, data: { what: 'bytes' } });

    // The same content with sizes that lie: the headers claim 10 bytes, and inflating stops past them.
    const lying = lyingZip('big.md', zeros, 10);
    const lied = await filesToSourceTree([{ name: 'lying.zip', bytes: lying }], limits).catch((e: unknown) => e);
    expect(lied).toBeInstanceOf(ZipInvalidError);
    expect((lied as Error).message).toMatch(/inflates to more than the 10 bytes its header declares/);
  });

  it('stops at the entry limit', async () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 30; i++) many[`p${i}.md`] = strToU8(`# ${i}\n`);
    const limits = { ...DEFAULT_FILE_IMPORT_LIMITS, maxZipEntries: 20 };
    await expect(filesToSourceTree([{ name: 'many.zip', bytes: zipSync(many) }], limits)).rejects.toMatchObject({
      code: 'FILE_IMPORT_ZIP_TOO_MANY_ENTRIES',
      data: { what: 'entries', limit: 20, declared: 30 },
    });
  });

  it('answers a clear error for bytes that are no zip', async () => {
    await expect(filesToSourceTree([{ name: 'x.zip', bytes: strToU8('not a zip at all') }])).rejects.toBeInstanceOf(ZipInvalidError);
  });
});

/** A one-entry deflated zip whose local header and central directory declare `declared` uncompressed bytes. */
function lyingZip(name: string, content: Uint8Array, declared: number): Uint8Array {
  const data = deflateRawSync(content, { level: 9 });
  const nameBytes = strToU8(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(0, 14); // crc (not checked while streaming)
  local.writeUInt32LE(data.byteLength, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(nameBytes.byteLength, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.byteLength, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(nameBytes.byteLength, 28);
  const centralOffset = local.byteLength + nameBytes.byteLength + data.byteLength;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.byteLength + nameBytes.byteLength, 12);
  end.writeUInt32LE(centralOffset, 16);
  return new Uint8Array(Buffer.concat([local, nameBytes, data, central, nameBytes, end]));
}
