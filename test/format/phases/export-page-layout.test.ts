import { describe, expect, it } from 'vitest';
import { treeFromFiles, type DocumentPage, type ExportOptions, type PageModel } from '../../../src/format/index.js';
import { createExportContext } from '../../../src/format/export/context.js';
import { collectManagedPaths } from '../../../src/format/export/managed-paths.js';
import { layOutPages } from '../../../src/format/export/page-layout.js';
import { docPage, groupPage, revisionOf } from './fixtures.js';

/** The page-layout phase alone: where each page's file goes in the exported tree. */
function layOut(pages: PageModel[], files: Record<string, string>, managed: string[] = [], options: ExportOptions = {}) {
  const ctx = createExportContext(revisionOf(pages), treeFromFiles(files), options);
  for (const p of managed) ctx.basePages.add(p);
  layOutPages(ctx);
  return ctx;
}

/** A page no file holds yet (created in Folio). */
function newPage(id: string, slug: string, extra: Partial<DocumentPage> = {}): DocumentPage {
  const page = docPage('', '', id, { slug, path: slug, ...extra });
  delete page.git;
  return page;
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

  it('a page moved since the base (its URL path there differs) moves, even when its stored URL path was recomputed', () => {
    // A change request renames the page: its stored path follows its slug; the base still has the old one.
    const base = revisionOf([docPage('old.md', 'o1', 'MOVED', { slug: 'old', path: 'old' })]);
    const ctx = layOut([docPage('old.md', 'o1', 'MOVED', { slug: 'notes', path: 'notes' })], { 'old.md': 'y' }, [], { base });
    expect(ctx.paths.get('MOVED')).toBe('notes.md');
    expect([...ctx.moved]).toEqual([['MOVED', 'old.md']]);
  });

  it('pages an earlier export wrote stay in the files it recorded; a moved one leaves its recorded file, not its git path', () => {
    const base = revisionOf([newPage('NEW', 'new'), docPage('old.md', 'o1', 'MOVED', { slug: 'notes', path: 'old' }), newPage('AGAIN', 'again')]);
    const exportedPaths = new Map([
      ['NEW', 'new.md'],
      ['MOVED', 'notes.md'],
      ['AGAIN', 'again.md'],
    ]);
    const pages = [newPage('NEW', 'new'), docPage('old.md', 'o1', 'MOVED', { slug: 'notes', path: 'old' }), newPage('AGAIN', 'later')];
    const files = { 'new.md': 'a', 'notes.md': 'b', 'again.md': 'c', 'old.md': 'someone else’s file' };
    const ctx = layOut(pages, files, [], { base, exportedPaths });
    expect(ctx.paths.get('NEW')).toBe('new.md');
    expect(ctx.paths.get('MOVED')).toBe('notes.md');
    expect(ctx.paths.get('AGAIN')).toBe('later.md');
    expect([...ctx.moved]).toEqual([['AGAIN', 'again.md']]);
  });

  it('the files an earlier export wrote are managed; the path a page was moved from is not', async () => {
    const base = revisionOf([newPage('NEW', 'new'), docPage('old.md', 'o1', 'MOVED', { slug: 'notes', path: 'old' })]);
    const exportedPaths = new Map([
      ['NEW', 'new.md'],
      ['MOVED', 'notes.md'],
    ]);
    const ctx = createExportContext(base, treeFromFiles({ 'new.md': 'a', 'notes.md': 'b', 'old.md': 'c' }), { base, exportedPaths });
    await collectManagedPaths(ctx);
    expect([...ctx.basePages].sort()).toEqual(['new.md', 'notes.md']);
  });
});
