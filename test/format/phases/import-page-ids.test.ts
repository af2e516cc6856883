import { describe, expect, it } from 'vitest';
import type { DocumentPage, PageModel } from '../../../src/format/index.js';
import type { PageLoad } from '../../../src/format/import/context.js';
import { IdClaims } from '../../../src/format/import/id-claims.js';
import { assignPageIds } from '../../../src/format/import/page-ids.js';
import { indexPrevious } from '../../../src/format/import/previous-index.js';
import { docPage, groupPage, linkPage, revisionOf } from './fixtures.js';

/** The id phase alone: today's pages (no ids yet) against the previous revision. */
function assign(pages: PageModel[], previous: PageModel[], claimed: string[] = [], exportedPaths?: ReadonlyMap<string, string>) {
  const loads: PageLoad[] = [];
  const pageByPath = new Map<string, DocumentPage>();
  const walk = (list: PageModel[]) => {
    for (const p of list) {
      if (p.kind === 'document') {
        loads.push({ page: p, entry: { oid: p.git!.oid, read: () => Promise.reject(new Error('not read')) }, tocText: undefined });
        pageByPath.set(p.git!.path, p);
      }
      walk(p.children);
    }
  };
  walk(pages);
  const ids = new IdClaims();
  for (const id of claimed) ids.claim(id);
  assignPageIds({ loads, pages, pageByPath, prev: indexPrevious(revisionOf(previous), exportedPaths), ids });
  return ids;
}

describe('import phase: ids from the previous revision', () => {
  it('reuses a document id by path, then by content for a moved file; a new file gets a new id', () => {
    const pages = [docPage('README.md', 'o1'), docPage('moved/here.md', 'o2'), docPage('new.md', 'o3')];
    assign(pages, [docPage('README.md', 'changed', 'ID_README'), docPage('old/place.md', 'o2', 'ID_MOVED')]);
    expect(pages[0]!.id).toBe('ID_README');
    expect(pages[1]!.id).toBe('ID_MOVED');
    expect(pages[2]!.id).toMatch(/^[0-9A-Za-z]{20}$/);
  });

  it('finds the pages an export wrote by the paths it recorded: a new page, and a moved one (not by the path it left)', () => {
    const created = docPage('', '', 'ID_NEW');
    delete created.git;
    const previous = [docPage('README.md', 'o1', 'ID_README'), created, docPage('old.md', 'o2', 'ID_MOVED')];
    const exported = new Map([
      ['ID_NEW', 'new.md'],
      ['ID_MOVED', 'moved.md'],
    ]);
    // The new page's file was edited upstream, the moved one was too; someone made a new file where the moved one was.
    const pages = [docPage('README.md', 'o1'), docPage('new.md', 'o3'), docPage('moved.md', 'o4'), docPage('old.md', 'o5')];
    assign(pages, previous, [], exported);
    expect(pages.slice(0, 3).map((p) => p.id)).toEqual(['ID_README', 'ID_NEW', 'ID_MOVED']);
    expect(pages[3]!.id).toMatch(/^[0-9A-Za-z]{20}$/);
    // Without the recorded paths, both files would be new pages.
    const again = [docPage('new.md', 'o3'), docPage('moved.md', 'o4')];
    assign(again, previous);
    expect(again.map((p) => p.id)).not.toContain('ID_NEW');
    expect(again.map((p) => p.id)).not.toContain('ID_MOVED');
  });

  it('by content, takes the id of a page whose file is gone, not of the one still in place with the same bytes', () => {
    // a.md and b.md had the same bytes; b.md was renamed c.md: c.md takes b.md's id, a.md keeps its own
    const pages = [docPage('a.md', 'o1'), docPage('c.md', 'o1')];
    assign(pages, [docPage('a.md', 'o1', 'ID_A'), docPage('b.md', 'o1', 'ID_B')]);
    expect(pages.map((p) => p.id)).toEqual(['ID_A', 'ID_B']);
  });

  it('gives groups, links and computed entries the n-th previous id of the same title / href / source', () => {
    const pages: PageModel[] = [
      groupPage('Guides', '', [linkPage('https://x.test', ''), linkPage('https://x.test', '')]),
      groupPage('Guides', ''),
      { id: '', kind: 'computed', title: '', slug: '', source: 'openapi: a', children: [] },
    ];
    assign(pages, [
      groupPage('Guides', 'G1', [linkPage('https://x.test', 'L1')]),
      groupPage('Guides', 'G2'),
      { id: 'C1', kind: 'computed', title: '', slug: '', source: 'openapi: a', children: [] },
    ]);
    expect(pages.map((p) => p.id)).toEqual(['G1', 'G2', 'C1']);
    expect(pages[0]!.children[0]!.id).toBe('L1');
    expect(pages[0]!.children[1]!.id).toMatch(/^[0-9A-Za-z]{20}$/);
  });

  it('never gives an id twice: one already claimed (by a space file) is replaced', () => {
    const pages = [docPage('README.md', 'o1')];
    const ids = assign(pages, [docPage('README.md', 'o1', 'TAKEN')], ['TAKEN']);
    expect(pages[0]!.id).not.toBe('TAKEN');
    expect(ids.used.size).toBe(2);
  });
});
