import { FormatWarningCodes, warning, type FormatWarningCode } from '../errors.js';
import type { DocumentPage, GroupPage, LinkPage, PageModel, SourceEntry } from '../model.js';
import { basename, dirname, isExternalUrl, isMarkdownPath, isWithin, resolvePath, safeDecode, splitFragment } from '../paths.js';
import type { TocEntry, TocLinkEntry } from '../summary/types.js';
import type { ImportContext } from './context.js';
import { slugify } from '../slug.js';

function humanize(name: string): string {
  const base = name.replace(/\.md$/i, '').replace(/[-_]+/g, ' ').trim();
  return base.charAt(0).toUpperCase() + base.slice(1);
}

function linkPage(text: string, href: string, target: LinkPage['target'], linkTitle?: string): LinkPage {
  const p: LinkPage = { id: '', kind: 'link', title: text, slug: slugify(text), href, target, children: [] };
  if (linkTitle !== undefined) p.linkTitle = linkTitle;
  return p;
}

type TreeContext = Pick<ImportContext, 'tree' | 'config' | 'warnings' | 'toc' | 'pages' | 'pageByPath' | 'loads' | 'pendingLinks' | 'builtFrom'>;

/** A document page of the file at `path`, queued for loading. */
function makeDocument(ctx: TreeContext, path: string, entry: SourceEntry, tocText: string | undefined, linkTitle: string | undefined): DocumentPage {
  const page: DocumentPage = {
    id: '',
    kind: 'document',
    title: tocText ?? humanize(basename(path) === 'README.md' ? basename(dirname(path)) || 'README' : basename(path)),
    titleSource: tocText !== undefined ? 'summary' : 'path',
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
    git: { oid: entry.oid, path },
  };
  if (linkTitle !== undefined) page.linkTitle = linkTitle;
  ctx.loads.push({ page, entry, tocText });
  ctx.pageByPath.set(path, page);
  return page;
}

/** The path a SUMMARY destination names (as written, else percent-decoded), and its tree entry when there is one. */
function resolveDestination(ctx: TreeContext, rawPath: string): { resolved: string | null; entry: SourceEntry | undefined } {
  const summaryDir = dirname(ctx.config.summary);
  const candidates = [rawPath];
  const dec = safeDecode(rawPath);
  if (dec !== null && dec !== rawPath) candidates.push(dec);
  let resolved: string | null = null;
  for (const c of candidates) {
    const r = resolvePath(summaryDir, c);
    if (r === null) continue;
    resolved ??= r;
    const hit = ctx.tree.get(r);
    if (hit) return { resolved: r, entry: hit };
  }
  return { resolved, entry: undefined };
}

/** A page for an entry naming a path in the repository: a document, or a link (with a warning when it cannot be one). */
function localEntryNode(ctx: TreeContext, e: TocLinkEntry, dest: string): PageModel {
  const { config, warnings, pageByPath, pendingLinks } = ctx;
  const text = e.text === '' ? undefined : e.text;
  const { path: rawPath, fragment } = splitFragment(dest);
  const { resolved, entry } = resolveDestination(ctx, rawPath);
  const unresolved = (path: string) => linkPage(e.text, e.dest, { kind: 'unresolved', path }, e.linkTitle);
  const warn = (code: FormatWarningCode, message: string, severity?: 'error' | 'info'): void => {
    warnings.push(warning(code, message, { ...(severity ? { severity } : {}), path: config.summary, line: e.line }));
  };
  if (resolved === null || !isWithin(resolved, config.root)) {
    warn(FormatWarningCodes.SUMMARY_OUTSIDE_ROOT, `SUMMARY entry ${JSON.stringify(e.dest)} points outside the content root; kept as a link`, 'error');
    return unresolved(resolved ?? rawPath);
  }
  if (fragment !== undefined) {
    const l = unresolved(resolved);
    pendingLinks.push({ page: l, path: resolved, fragment });
    return l;
  }
  if (!entry) {
    warn(FormatWarningCodes.SUMMARY_MISSING_FILE, `SUMMARY entry ${JSON.stringify(e.dest)} names a file that does not exist; kept as a link`, 'error');
    return unresolved(resolved);
  }
  if (!isMarkdownPath(resolved)) {
    warn(FormatWarningCodes.SUMMARY_NOT_MARKDOWN, `SUMMARY entry ${JSON.stringify(e.dest)} is not a Markdown file; kept as a link`, 'info');
    return unresolved(resolved);
  }
  if (pageByPath.has(resolved)) {
    warn(FormatWarningCodes.SUMMARY_DUPLICATE_ENTRY, `SUMMARY lists ${JSON.stringify(resolved)} more than once; later entries become links to the first`);
    const l = unresolved(resolved);
    pendingLinks.push({ page: l, path: resolved });
    return l;
  }
  return makeDocument(ctx, resolved, entry, text, e.linkTitle);
}

/** The page of one table-of-contents entry and, recursively, of its children. */
function buildEntry(ctx: TreeContext, e: TocEntry): PageModel {
  if (e.kind === 'yaml') {
    const computed: PageModel = { id: '', kind: 'computed', title: '', slug: '', source: e.source, children: [] };
    computed.children = e.children.map((c) => buildEntry(ctx, c));
    return computed;
  }
  const dest = e.dest.trim();
  const node = isExternalUrl(dest) ? linkPage(e.text, e.dest, { kind: 'url', url: dest }, e.linkTitle) : localEntryNode(ctx, e, dest);
  node.children = e.children.map((c) => buildEntry(ctx, c));
  ctx.builtFrom.set(e, node);
  return node;
}

/**
 * Phase "summary resolution": the page tree of the table of contents, without ids. An entry naming a Markdown file of
 * the content root becomes a document page (queued in `loads`); one with an anchor or listed twice becomes a link
 * resolved later (`pendingLinks`); one outside the root, missing or not Markdown stays a link, with a warning.
 */
export function buildPageTree(ctx: TreeContext): void {
  for (const section of ctx.toc.toc.sections) {
    const built = section.entries.map((e) => buildEntry(ctx, e));
    if (section.group === null) ctx.pages.push(...built);
    else {
      const g: GroupPage = { id: '', kind: 'group', title: section.group.title, slug: section.group.anchor ?? slugify(section.group.title), children: built };
      if (section.group.untitled) g.untitled = true;
      if (section.group.anchor !== undefined) g.explicitAnchor = true;
      ctx.pages.push(g);
      ctx.builtFrom.set(section, g);
    }
  }
}
