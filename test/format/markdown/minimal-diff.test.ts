import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import type { Paragraph, Text } from 'mdast';
import { parsePageFile, serializePageFile } from '../../../src/format/markdown/index.js';
import { corpusRepos } from './corpus.js';
import { changedLines } from '../changed-lines.js';

function firstParagraphText(page: ReturnType<typeof parsePageFile>): Text | undefined {
  for (const b of page.document.children) {
    if (b.type === 'paragraph' && b.children[0]?.type === 'text') return (b as Paragraph).children[0] as Text;
  }
  return undefined;
}

describe('minimal-diff serialization', () => {
  // A hand-written legacy-looking file whose style the exporter would not reproduce.
  const original =
    '---\ndescription:    odd   spacing kept\ntitle: x\n---\n\n# Title\n\nFirst   paragraph with *stars* and trailing.\n\n\n-   hand list\n-   second\n\nSecond paragraph.\n\nThird paragraph.\n';

  it('unchanged model gives back the original bytes', () => {
    const page = parsePageFile(original);
    expect(serializePageFile(page, { original: { text: original, page: parsePageFile(original) } })).toBe(original);
  });

  it('editing one paragraph changes only its line', () => {
    const before = parsePageFile(original);
    const page = parsePageFile(original);
    const para = page.document.children.find((b) => b.type === 'paragraph' && (b.children[0] as Text).value.startsWith('Second')) as Paragraph;
    (para.children[0] as Text).value = 'Second paragraph, edited_now.';
    const out = serializePageFile(page, { original: { text: original, page: before } });
    expect(changedLines(original, out)).toEqual([14]);
    expect(out.split('\n')[13]).toBe('Second paragraph, edited\\_now.');
  });

  it('setting one front-matter key leaves the other keys byte-identical', () => {
    const before = parsePageFile(original);
    const page = parsePageFile(original);
    page.frontMatter!.set('title', 'In editor :: X');
    const out = serializePageFile(page, { original: { text: original, page: before } });
    expect(changedLines(original, out)).toEqual([3]);
    expect(out.split('\n')[2]).toBe("title: 'In editor :: X'");
  });

  it('inserting and deleting blocks keeps the neighbours', () => {
    const before = parsePageFile(original);
    const page = parsePageFile(original);
    page.document.children.splice(page.document.children.length - 1, 1);
    const out = serializePageFile(page, { original: { text: original, page: before } });
    expect(out).toBe(original.replace('\n\nThird paragraph.', ''));
  });

  const repos = corpusRepos();
  it.skipIf(repos.length === 0)('on corpus pages, an edit to the first paragraph changes only that paragraph', () => {
    let checked = 0;
    for (const repo of repos) {
      for (const rel of repo.all.slice(0, 6)) {
        const text = fs.readFileSync(path.join(repo.dir, rel), 'utf8');
        const before = parsePageFile(text);
        const page = parsePageFile(text);
        const t = firstParagraphText(page);
        if (!t || t.value.includes('\n')) continue;
        const para = page.document.children.find((b) => b.type === 'paragraph' && b.children[0] === t)!;
        t.value = 'Edited by Folio';
        const out = serializePageFile(page, { original: { text, page: before } });
        const line = para.position!.start.line;
        const diff = changedLines(text, out);
        expect(diff.length, `${repo.name}/${rel}`).toBeGreaterThan(0);
        expect(
          diff.every((l) => l >= line && l <= para.position!.end.line),
          `${repo.name}/${rel}: ${diff.join(',')}`,
        ).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
