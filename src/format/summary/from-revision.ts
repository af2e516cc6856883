import { createHash } from 'node:crypto';
import type { DocumentPage, PageModel, RevisionModel } from '../model.js';
import { dirname, relativePath } from '../paths.js';
import { serializeSummary } from './serialize.js';
import type { CommentAnchor, ParsedToc, TocEntry, TocSection } from './types.js';

/** Where each document page's file lives (page id → repository-relative path). */
export type PagePaths = Map<string, string>;

/** Build the SUMMARY.md form of a revision's table of contents. */
export function tocFromRevision(revision: RevisionModel, paths: PagePaths): ParsedToc {
  const summaryDir = dirname(revision.config.summary);
  const s = revision.summary;
  const toc: ParsedToc = { sections: [], style: tocStyle(s), comments: [...s.comments] };
  // page id → the entry or section written for it (to put comments back where they stood)
  const written = new Map<string, TocEntry | TocSection>();
  const destOf = (pageId: string): string | undefined => {
    const p = paths.get(pageId);
    return p === undefined ? undefined : relativePath(summaryDir, p);
  };
  const entryOf = (page: PageModel): TocEntry | null => {
    const e = entryFor(page);
    if (e) written.set(page.id, e);
    return e;
  };
  const entryFor = (page: PageModel): TocEntry | null => {
    const children = page.children.map(entryOf).filter((e): e is TocEntry => e !== null);
    switch (page.kind) {
      case 'document': {
        const dest = destOf(page.id);
        if (dest === undefined) return null;
        const e: TocEntry = { kind: 'link', text: page.tocTitle ?? page.title, dest, children, line: 0 };
        if (page.linkTitle !== undefined) e.linkTitle = page.linkTitle;
        return e;
      }
      case 'link': {
        let dest = page.href;
        if (page.target.kind === 'page') {
          const d = destOf(page.target.pageId);
          if (d !== undefined) dest = page.target.anchor !== undefined ? `${d}#${page.target.anchor}` : d;
        }
        const e: TocEntry = { kind: 'link', text: page.title, dest, children, line: 0 };
        if (page.linkTitle !== undefined) e.linkTitle = page.linkTitle;
        return e;
      }
      case 'computed':
        return { kind: 'yaml', source: page.source, children, line: 0 };
      case 'group':
        return null;
    }
  };
  let current: TocSection = { group: null, entries: [] };
  toc.sections.push(current);
  for (const page of revision.pages) {
    if (page.kind === 'group') {
      const group: NonNullable<TocSection['group']> = { title: page.title, untitled: page.untitled === true, line: 0 };
      if (page.explicitAnchor) group.anchor = page.slug;
      current = { group, entries: [] };
      toc.sections.push(current);
      written.set(page.id, current);
      for (const c of page.children) {
        const e = entryOf(c);
        if (e) current.entries.push(e);
      }
    } else {
      const e = entryOf(page);
      if (e) current.entries.push(e);
    }
  }
  if (s.commentPlaces && s.commentPlaces.length === s.comments.length) toc.commentPlaces = commentPlaces(s.commentPlaces, written);
  return toc;
}

type SummaryModel = RevisionModel['summary'];

/** The SUMMARY.md style the revision recorded (with the defaults of older records). */
function tocStyle(s: SummaryModel): ParsedToc['style'] {
  return {
    heading: s.heading,
    indent: s.indent,
    bullet: s.bullet,
    escapeDestinations: s.escapeDestinations,
    escapeParens: s.escapeParens ?? false,
    separator: s.separator,
    trailingNewlines: s.trailingNewlines ?? 1,
  };
}

/** Where each recorded comment goes back, anchored to the entry or section now written for the page it followed. */
function commentPlaces(
  places: NonNullable<SummaryModel['commentPlaces']>,
  written: Map<string, TocEntry | TocSection>,
): NonNullable<ParsedToc['commentPlaces']> {
  return places.map((c) => {
    const at = c.after === null ? undefined : written.get(c.after);
    // A comment after a page that is no longer written keeps no place: it goes to the end.
    const after: CommentAnchor =
      c.after === null ? { top: true } : at === undefined ? { section: { group: null, entries: [] } } : 'entries' in at ? { section: at } : { entry: at };
    return { after, blankBefore: c.blankBefore };
  });
}

export function summaryText(revision: RevisionModel, paths: PagePaths): string {
  return serializeSummary(tocFromRevision(revision, paths));
}

export function summaryFingerprint(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}

/** Every document page, depth first. */
export function* documents(pages: PageModel[]): Generator<DocumentPage> {
  for (const p of pages) {
    if (p.kind === 'document') yield p;
    yield* documents(p.children);
  }
}

export function* allPages(pages: PageModel[]): Generator<PageModel> {
  for (const p of pages) {
    yield p;
    yield* allPages(p.children);
  }
}
