import { describe, expect, it } from 'vitest';
import { treeFromFiles, type PageModel } from '../../../src/format/index.js';
import { createExportContext } from '../../../src/format/export/context.js';
import { layOutPages } from '../../../src/format/export/page-layout.js';
import { docPage, groupPage, revisionOf } from './fixtures.js';

/** The page-layout phase alone: where each page's file goes in the exported tree. */
function layOut(pages: PageModel[], files: Record<string, string>, managed: string[] = []) {
  const ctx = createExportContext(revisionOf(pages), treeFromFiles(files), {});
  for (const p of managed) ctx.basePages.add(p);
  layOutPages(ctx);
  return ctx;
}

describe('export phase: page file paths', () => {
  it('a page whose URL path is unchanged stays in its file, whatever its name', () => {
    const ctx = layOut(
      [docPage('README.md', 'o1', 'HOME', { slug: '', path: '' }), docPage('docs/Odd Name.md', 'o2', 'ODD', { slug: 'odd', path: 'odd' })],
      {},
    );
    expect([...ctx.paths]).toEqual([
      ['HOME', 'README.md'],
      ['ODD', 'docs/Odd Name.md'],
    ]);
    expect(ctx.moved.size).toBe(0);
  });

  it('a new page goes under its parent folder by slug; a parent with children becomes a README', () => {
    const child = docPage('', '', 'CHILD', { slug: 'child', path: '' });
    delete child.git;
    const parent = docPage('', '', 'PARENT', { slug: 'parent', path: '', children: [child] });
    delete parent.git;
    const ctx = layOut([groupPage('G', 'G1', [parent])], {});
    expect(ctx.paths.get('PARENT')).toBe('parent/README.md');
    expect(ctx.paths.get('CHILD')).toBe('parent/child.md');
    expect(ctx.urlPaths.get('CHILD')).toBe('parent/child');
  });

  it('a moved page gets a new path, numbered past taken paths and files the space does not manage', () => {
    const moved = docPage('old.md', 'o1', 'MOVED', { slug: 'notes', path: 'old' });
    const ctx = layOut([docPage('notes.md', 'o2', 'STAYS', { slug: 'notes', path: 'notes' }), moved], {
      'notes.md': 'x',
      'notes-1.md': 'not ours',
      'old.md': 'y',
    });
    expect(ctx.paths.get('STAYS')).toBe('notes.md');
    expect(ctx.paths.get('MOVED')).toBe('notes-2.md');
    expect([...ctx.moved]).toEqual([['MOVED', 'old.md']]);
  });

  it('a file the space manages may be taken over', () => {
    const moved = docPage('old.md', 'o1', 'MOVED', { slug: 'notes', path: 'old' });
    const ctx = layOut([moved], { 'notes.md': 'a page deleted from the space', 'old.md': 'y' }, ['notes.md']);
    expect(ctx.paths.get('MOVED')).toBe('notes.md');
  });
});
