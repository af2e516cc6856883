/** Small builders for the phase tests: pages and trees without running the whole import or export. */
import type { DocumentPage, GroupPage, LinkPage, PageModel, RevisionModel } from '../../../src/format/index.js';

export function docPage(path: string, oid: string, id = '', extra: Partial<DocumentPage> = {}): DocumentPage {
  return {
    id,
    kind: 'document',
    title: path,
    titleSource: 'path',
    slug: '',
    path: '',
    hidden: false,
    noIndex: false,
    frontMatter: null,
    frontMatterValid: true,
    markdown: null,
    derived: '',
    references: [],
    children: [],
    git: { oid, path },
    ...extra,
  };
}

export function groupPage(title: string, id: string, children: PageModel[] = []): GroupPage {
  return { id, kind: 'group', title, slug: title.toLowerCase(), children };
}

export function linkPage(href: string, id: string): LinkPage {
  return { id, kind: 'link', title: href, slug: '', href, target: { kind: 'url', url: href }, children: [] };
}

export function revisionOf(pages: PageModel[], files: RevisionModel['files'] = []): RevisionModel {
  return {
    version: 1,
    config: { projectDirectory: '', configPath: null, root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: [] },
    pages,
    files,
    summary: {
      present: true,
      heading: '# Table of contents',
      indent: 2,
      bullet: '*',
      escapeDestinations: false,
      escapeParens: false,
      separator: '\n',
      trailingNewlines: 1,
      fingerprint: '',
      comments: [],
    },
  };
}
