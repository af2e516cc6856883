import { FormatWarningCodes, warning } from '../errors.js';
import type { DocumentPage, GroupPage, LinkPage, PageModel, SourceEntry } from '../model.js';
import { basename, dirname, isExternalUrl, isMarkdownPath, isWithin, resolvePath, safeDecode, splitFragment } from '../paths.js';
import type { TocEntry } from '../summary/types.js';
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

/**
 * Phase "summary resolution": the page tree of the table of contents, without ids. An entry naming a Markdown file of
 * the content root becomes a document page (queued in `loads`); one with an anchor or listed twice becomes a link
 * resolved later (`pendingLinks`); one outside the root, missing or not Markdown stays a link, with a warning.
 */
export function buildPageTree(
  ctx: Pick<ImportContext, 'tree' | 'config' | 'warnings' | 'toc' | 'pages' | 'pageByPath' | 'loads' | 'pendingLinks' | 'builtFrom'>,
): void {
  const { tree, config, warnings, pageByPath, loads, pendingLinks, builtFrom } = ctx;
  const root = config.root;
  const summaryDir = dirname(config.summary);

  const makeDocument = (path: string, entry: SourceEntry, tocText: string | undefined, linkTitle: string | undefined): DocumentPage => {
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
    loads.push({ page, entry, tocText });
    pageByPath.set(path, page);
    return page;
  };

  const buildEntry = (e: TocEntry): PageModel => {
    if (e.kind === 'yaml') {
      const computed: PageModel = { id: '', kind: 'computed', title: '', slug: '', source: e.source, children: [] };
      computed.children = e.children.map(buildEntry);
      return computed;
    }
    let node: PageModel;
    const dest = e.dest.trim();
    const text = e.text === '' ? undefined : e.text;
    if (isExternalUrl(dest)) node = linkPage(e.text, e.dest, { kind: 'url', url: dest }, e.linkTitle);
    else {
      const { path: rawPath, fragment } = splitFragment(dest);
      const candidates = [rawPath];
      const dec = safeDecode(rawPath);
      if (dec !== null && dec !== rawPath) candidates.push(dec);
      let resolved: string | null = null;
      let entry: SourceEntry | undefined;
      for (const c of candidates) {
        const r = resolvePath(summaryDir, c);
        if (r === null) continue;
        resolved ??= r;
        const hit = tree.get(r);
        if (hit) {
          resolved = r;
          entry = hit;
          break;
        }
      }
      if (resolved === null || !isWithin(resolved, root)) {
        warnings.push(
          warning(FormatWarningCodes.SUMMARY_OUTSIDE_ROOT, `SUMMARY entry ${JSON.stringify(e.dest)} points outside the content root; kept as a link`, {
            severity: 'error',
            path: config.summary,
            line: e.line,
          }),
        );
        node = linkPage(e.text, e.dest, { kind: 'unresolved', path: resolved ?? rawPath }, e.linkTitle);
      } else if (fragment !== undefined) {
        const l = linkPage(e.text, e.dest, { kind: 'unresolved', path: resolved }, e.linkTitle);
        pendingLinks.push({ page: l, path: resolved, fragment });
        node = l;
      } else if (!entry) {
        warnings.push(
          warning(FormatWarningCodes.SUMMARY_MISSING_FILE, `SUMMARY entry ${JSON.stringify(e.dest)} names a file that does not exist; kept as a link`, {
            severity: 'error',
            path: config.summary,
            line: e.line,
          }),
        );
        node = linkPage(e.text, e.dest, { kind: 'unresolved', path: resolved }, e.linkTitle);
      } else if (!isMarkdownPath(resolved)) {
        warnings.push(
          warning(FormatWarningCodes.SUMMARY_NOT_MARKDOWN, `SUMMARY entry ${JSON.stringify(e.dest)} is not a Markdown file; kept as a link`, {
            severity: 'info',
            path: config.summary,
            line: e.line,
          }),
        );
        node = linkPage(e.text, e.dest, { kind: 'unresolved', path: resolved }, e.linkTitle);
      } else if (pageByPath.has(resolved)) {
        warnings.push(
          warning(
            FormatWarningCodes.SUMMARY_DUPLICATE_ENTRY,
            `SUMMARY lists ${JSON.stringify(resolved)} more than once; later entries become links to the first`,
            { path: config.summary, line: e.line },
          ),
        );
        const l = linkPage(e.text, e.dest, { kind: 'unresolved', path: resolved }, e.linkTitle);
        pendingLinks.push({ page: l, path: resolved });
        node = l;
      } else {
        node = makeDocument(resolved, entry, text, e.linkTitle);
      }
    }
    node.children = e.children.map(buildEntry);
    builtFrom.set(e, node);
    return node;
  };

  for (const section of ctx.toc.toc.sections) {
    const built = section.entries.map(buildEntry);
    if (section.group === null) ctx.pages.push(...built);
    else {
      const g: GroupPage = { id: '', kind: 'group', title: section.group.title, slug: section.group.anchor ?? slugify(section.group.title), children: built };
      if (section.group.untitled) g.untitled = true;
      if (section.group.anchor !== undefined) g.explicitAnchor = true;
      ctx.pages.push(g);
      builtFrom.set(section, g);
    }
  }
}
