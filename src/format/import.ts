/**
 * Git tree → revision model. Reads `.gitbook.yaml`, SUMMARY.md (or infers the TOC from folders),
 * the page files listed there and the space files under `.gitbook/assets` / `.gitbook/includes`.
 * Incremental: with `previous`, a page whose blob oid is unchanged is reused without reading it.
 */
import { FormatWarningCodes, PageTooComplexError, TooManyPagesError, warning, type FormatWarning, type RawPageReason } from './errors.js';
import { contentTypeOf } from './content-type.js';
import { resolveSpaceConfig } from './gitbook-yaml.js';
import { newId } from '../revision/ids.js';
import { slugify } from '../revision/slug.js';
import type {
  DocumentPage, FileModel, GroupPage, ImportLimits, ImportOptions, ImportResult, LinkPage, PageModel, PageReference, RevisionModel, SourceEntry, SourceTree,
} from './model.js';
import { REVISION_MODEL_VERSION } from './model.js';
import { DEFAULT_MAX_LENGTH } from './markdown/index.js';
import { fieldsFingerprint, leadingEmoji, type PageFields } from './page-codec.js';
import { inlinePageCodec, type DecodedPageSummary } from './page-codec-runner.js';
import { basename, dirname, isExternalUrl, isMarkdownPath, isWithin, joinPath, resolvePath, safeDecode, splitFragment } from './paths.js';
import { resolveReference, type ReferenceIndex } from './resolve-reference.js';
import { documents, summaryFingerprint, summaryText, allPages } from './summary/from-revision.js';
import { inferToc } from './summary/infer.js';
import { parseSummary } from './summary/parse.js';
import type { ParsedToc, TocEntry, TocSection } from './summary/types.js';

/**
 * Default limits. The page size limit is the markdown layer's parse limit (2 MiB), so a page is
 * either parsed whole or kept opaque with one FORMAT_PAGE_TOO_LARGE warning, never half-parsed.
 */
export const DEFAULT_LIMITS: Required<ImportLimits> = { maxPages: 5000, maxPageBytes: DEFAULT_MAX_LENGTH };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function humanize(name: string): string {
  const base = name.replace(/\.md$/i, '').replace(/[-_]+/g, ' ').trim();
  return base.charAt(0).toUpperCase() + base.slice(1);
}

interface PreviousIndex {
  byPath: Map<string, DocumentPage>;
  byOid: Map<string, DocumentPage[]>;
  /** Same-keyed entries in TOC order: the n-th one today takes the n-th one's id. */
  groupsByTitle: Map<string, GroupPage[]>;
  linksByHref: Map<string, LinkPage[]>;
  otherIds: Map<string, string[]>;
  filesByPath: Map<string, FileModel>;
  filesByOid: Map<string, FileModel>;
}

function push<T>(m: Map<string, T[]>, key: string, value: T): void {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

function indexPrevious(prev: RevisionModel | undefined): PreviousIndex {
  const idx: PreviousIndex = { byPath: new Map(), byOid: new Map(), groupsByTitle: new Map(), linksByHref: new Map(), otherIds: new Map(), filesByPath: new Map(), filesByOid: new Map() };
  if (!prev) return idx;
  for (const p of allPages(prev.pages)) {
    if (p.kind === 'document' && p.git) {
      idx.byPath.set(p.git.path, p);
      const list = idx.byOid.get(p.git.oid) ?? [];
      list.push(p);
      idx.byOid.set(p.git.oid, list);
    } else if (p.kind === 'group') push(idx.groupsByTitle, p.untitled ? '***' : p.title, p);
    else if (p.kind === 'link') push(idx.linksByHref, p.href, p);
    else if (p.kind === 'computed') push(idx.otherIds, p.source, p.id);
  }
  for (const f of prev.files) {
    if (f.git) {
      idx.filesByPath.set(f.git.path, f);
      idx.filesByOid.set(f.git.oid, f);
    }
  }
  return idx;
}

export async function importTree(tree: SourceTree, options: ImportOptions = {}): Promise<ImportResult> {
  const limits = { ...DEFAULT_LIMITS, ...(options.limits ?? {}) };
  const warnings: FormatWarning[] = [];
  const { config, warnings: configWarnings } = await resolveSpaceConfig(tree, options.projectDirectory);
  warnings.push(...configWarnings);
  const root = config.root;
  const assetsDir = joinPath(root, '.gitbook/assets');
  const includesDir = joinPath(root, '.gitbook/includes');
  const gitbookDir = joinPath(root, '.gitbook');
  const prev = indexPrevious(options.previous?.revision);
  const usedIds = new Set<string>();
  const claim = (id: string | undefined): string => {
    const chosen = id !== undefined && !usedIds.has(id) ? id : newId();
    usedIds.add(chosen);
    return chosen;
  };

  // ---- files (.gitbook/assets, .gitbook/includes) ----
  const files: FileModel[] = [];
  const filesByPath = new Map<string, string>();
  {
    const pending: Array<[string, SourceEntry, FileModel['role']]> = [];
    for (const [path, entry] of tree) {
      if (isWithin(path, assetsDir) && path !== assetsDir) pending.push([path, entry, 'asset']);
      else if (isWithin(path, includesDir) && path !== includesDir) pending.push([path, entry, 'include']);
    }
    // ids by path first, then by content (moved files keep their id)
    const ids = new Map<string, string>();
    for (const [path] of pending) {
      const p = prev.filesByPath.get(path);
      if (p && !usedIds.has(p.id)) ids.set(path, claim(p.id));
    }
    for (const [path, entry] of pending) {
      if (ids.has(path)) continue;
      const p = prev.filesByOid.get(entry.oid);
      ids.set(path, claim(p?.id));
    }
    for (const [path, entry, role] of pending) {
      const name = basename(path);
      const f: FileModel = { id: ids.get(path)!, name, path, contentType: contentTypeOf(name), role, referenced: false, git: { oid: entry.oid, path } };
      if (entry.size !== undefined) f.size = entry.size;
      files.push(f);
      filesByPath.set(path, f.id);
    }
  }

  // ---- table of contents ----
  let toc: ParsedToc;
  const summaryEntry = tree.get(config.summary);
  const summaryPresent = summaryEntry !== undefined && summaryEntry.mode !== '120000';
  if (summaryPresent) {
    const bytes = await summaryEntry.read();
    try {
      utf8.decode(bytes);
    } catch {
      const invalid = invalidUtf8Offsets(bytes);
      warnings.push(warning(FormatWarningCodes.SUMMARY_INVALID_UTF8, `${config.summary} is not valid UTF-8 (${invalid.count} invalid byte${invalid.count === 1 ? '' : 's'}, first at byte ${invalid.first}); read with U+FFFD in their place, the file is rewritten only when the table of contents changes`, { severity: 'error', path: config.summary, data: { invalidBytes: invalid.count, offset: invalid.first } }));
    }
    const parsed = parseSummary(new TextDecoder().decode(bytes), config.summary);
    toc = parsed.toc;
    warnings.push(...parsed.warnings);
  } else {
    if (summaryEntry) warnings.push(warning(FormatWarningCodes.SUMMARY_SYMLINK, `${config.summary} is a symbolic link; it is not followed, the table of contents is inferred from the folders and the link is left untouched`, { severity: 'error', path: config.summary }));
    toc = inferToc(tree, root, config.readme, config.summary);
  }

  const summaryDir = dirname(config.summary);
  const pageByPath = new Map<string, DocumentPage>();
  /** Document pages to load, in TOC order. */
  const loads: Array<{ page: DocumentPage; entry: SourceEntry; tocText: string | undefined }> = [];
  const pendingLinks: Array<{ page: LinkPage; path: string; fragment?: string }> = [];

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

  const linkPage = (text: string, href: string, target: LinkPage['target'], linkTitle?: string): LinkPage => {
    const p: LinkPage = { id: '', kind: 'link', title: text, slug: slugify(text), href, target, children: [] };
    if (linkTitle !== undefined) p.linkTitle = linkTitle;
    return p;
  };

  /** The page built for each TOC entry or group section (to record where SUMMARY comments stood). */
  const builtFrom = new Map<TocEntry | TocSection, PageModel>();
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
        warnings.push(warning(FormatWarningCodes.SUMMARY_OUTSIDE_ROOT, `SUMMARY entry ${JSON.stringify(e.dest)} points outside the content root; kept as a link`, { severity: 'error', path: config.summary, line: e.line }));
        node = linkPage(e.text, e.dest, { kind: 'unresolved', path: resolved ?? rawPath }, e.linkTitle);
      } else if (fragment !== undefined) {
        const l = linkPage(e.text, e.dest, { kind: 'unresolved', path: resolved }, e.linkTitle);
        pendingLinks.push({ page: l, path: resolved, fragment });
        node = l;
      } else if (!entry) {
        warnings.push(warning(FormatWarningCodes.SUMMARY_MISSING_FILE, `SUMMARY entry ${JSON.stringify(e.dest)} names a file that does not exist; kept as a link`, { severity: 'error', path: config.summary, line: e.line }));
        node = linkPage(e.text, e.dest, { kind: 'unresolved', path: resolved }, e.linkTitle);
      } else if (!isMarkdownPath(resolved)) {
        warnings.push(warning(FormatWarningCodes.SUMMARY_NOT_MARKDOWN, `SUMMARY entry ${JSON.stringify(e.dest)} is not a Markdown file; kept as a link`, { severity: 'info', path: config.summary, line: e.line }));
        node = linkPage(e.text, e.dest, { kind: 'unresolved', path: resolved }, e.linkTitle);
      } else if (pageByPath.has(resolved)) {
        warnings.push(warning(FormatWarningCodes.SUMMARY_DUPLICATE_ENTRY, `SUMMARY lists ${JSON.stringify(resolved)} more than once; later entries become links to the first`, { path: config.summary, line: e.line }));
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

  const pages: PageModel[] = [];
  for (const section of toc.sections) {
    const built = section.entries.map(buildEntry);
    if (section.group === null) pages.push(...built);
    else {
      const g: GroupPage = { id: '', kind: 'group', title: section.group.title, slug: section.group.anchor ?? slugify(section.group.title), children: built };
      if (section.group.untitled) g.untitled = true;
      if (section.group.anchor !== undefined) g.explicitAnchor = true;
      pages.push(g);
      builtFrom.set(section, g);
    }
  }

  // The page limit counts document pages (not links, groups or computed entries); nothing has been read yet.
  if (loads.length > limits.maxPages) throw new TooManyPagesError(loads.length, limits.maxPages);

  // ---- ids: by path, then by content, then new ----
  for (const { page } of loads) {
    const p = prev.byPath.get(page.git!.path);
    if (p && !usedIds.has(p.id)) page.id = claim(p.id);
  }
  for (const { page } of loads) {
    if (page.id !== '') continue;
    const cands = prev.byOid.get(page.git!.oid) ?? [];
    const free = cands.find((c) => !usedIds.has(c.id) && !pageByPath.has(c.git!.path));
    page.id = claim(free?.id);
  }
  for (const p of allPages(pages)) {
    if (p.id !== '') continue;
    const free = (ids: string[] | undefined) => ids?.find((id) => !usedIds.has(id));
    if (p.kind === 'group') p.id = claim(free(prev.groupsByTitle.get(p.untitled ? '***' : p.title)?.map((g) => g.id)));
    else if (p.kind === 'link') p.id = claim(free(prev.linksByHref.get(p.href)?.map((l) => l.id)));
    else if (p.kind === 'computed') p.id = claim(free(prev.otherIds.get(p.source)));
  }

  // ---- page contents ----
  const codec = options.codec ?? inlinePageCodec;
  let parsed = 0;
  let reused = 0;
  const rawUrls = new Map<string, string[]>();
  /** Warnings of each page, merged in TOC order whatever order the pages finish in. */
  const pageWarnings: FormatWarning[][] = loads.map(() => []);
  // Pages are read and parsed `codec.concurrency` at a time (a pool parses them on every core). Parsing in this
  // thread is synchronous: give the event loop a turn every ~50 ms so timers, heartbeats and RPC keep running.
  let lastYield = Date.now();
  const loadPage = async ({ page, entry, tocText }: (typeof loads)[number], warnings: FormatWarning[]): Promise<void> => {
    if (Date.now() - lastYield > 50) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = Date.now();
    }
    const path = page.git!.path;
    /** This page's file cannot be read as a page: its bytes are kept (the store holds them), one typed warning says why. */
    const keepRaw = (page: DocumentPage, reason: RawPageReason, size: number, message: string, data: Record<string, unknown>) => {
      page.raw = { reason, size };
      warnings.push(warning(reason, message, { severity: 'error', path, data: { size, ...data } }));
    };
    const old = prev.byPath.get(path);
    const reuse = old && old.git?.oid === entry.oid ? old : (prev.byOid.get(entry.oid) ?? []).find((c) => c.id === page.id);
    let fields: PageFields | null = null;
    if (reuse && (reuse.markdown !== null || entry.mode === '120000')) {
      reused++;
      page.markdown = reuse.markdown;
      page.frontMatter = reuse.frontMatter;
      page.frontMatterValid = reuse.frontMatterValid;
      page.hidden = reuse.hidden;
      page.noIndex = reuse.noIndex;
      for (const k of ['description', 'icon', 'cover', 'layout', 'metaLinks'] as const) if (reuse[k] !== undefined) (page as unknown as Record<string, unknown>)[k] = structuredClone(reuse[k]);
      if (reuse.titleSource === 'heading') {
        page.title = reuse.title;
        page.titleSource = 'heading';
      }
      page.derived = reuse.derived;
      rawUrls.set(page.id, reuse.references.map((r) => r.url));
    } else {
      if (entry.mode === '120000') {
        warnings.push(warning(FormatWarningCodes.PAGE_SYMLINK, `${path} is a symbolic link; the page is imported without content and left untouched`, { severity: 'error', path }));
      } else if (entry.size !== undefined && entry.size > limits.maxPageBytes) {
        keepRaw(page, FormatWarningCodes.PAGE_TOO_LARGE, entry.size, `${path} is ${entry.size} bytes (limit ${limits.maxPageBytes}); kept as raw bytes, not parsed, exported unchanged`, { limit: limits.maxPageBytes });
      } else {
        const bytes = await entry.read();
        parsed++;
        let text: string | null = null;
        if (bytes.byteLength > limits.maxPageBytes) {
          keepRaw(page, FormatWarningCodes.PAGE_TOO_LARGE, bytes.byteLength, `${path} is ${bytes.byteLength} bytes (limit ${limits.maxPageBytes}); kept as raw bytes, not parsed, exported unchanged`, { limit: limits.maxPageBytes });
        } else if (bytes.includes(0)) {
          keepRaw(page, FormatWarningCodes.PAGE_BINARY, bytes.byteLength, `${path} is binary (it holds NUL bytes, first at byte ${bytes.indexOf(0)}); kept as raw bytes, not parsed, exported unchanged`, { offset: bytes.indexOf(0) });
        } else {
          try {
            text = utf8.decode(bytes);
          } catch {
            const invalid = invalidUtf8Offsets(bytes);
            keepRaw(page, FormatWarningCodes.PAGE_INVALID_UTF8, bytes.byteLength, `${path} is not valid UTF-8 (${invalid.count} invalid byte${invalid.count === 1 ? '' : 's'}, first at byte ${invalid.first}); kept as raw bytes, not parsed, exported unchanged`, { invalidBytes: invalid.count, offset: invalid.first });
          }
        }
        let decoded: DecodedPageSummary | null = null;
        if (text !== null) {
          try {
            // Within the byte limit, so within the parser's length limit too (UTF-16 length ≤ UTF-8 bytes).
            decoded = await codec.decode(text, Math.max(limits.maxPageBytes, DEFAULT_MAX_LENGTH));
          } catch (err) {
            if (!(err instanceof PageTooComplexError)) throw err;
            // Kept like a page over the size limit: its bytes stored as they are, written back unchanged on export.
            keepRaw(page, FormatWarningCodes.PAGE_TOO_COMPLEX, bytes.byteLength, `${path} is too complex to parse (over the ${err.budget} budget${err.data.limit !== undefined ? ` of ${String(err.data.limit)}${err.budget === 'time' ? ' ms' : err.budget === 'memory' ? ' MB' : ''}` : ''}); kept as raw bytes, not parsed, exported unchanged`, { ...err.data });
          }
        }
        if (text !== null && decoded !== null) {
          fields = decoded.fields;
          page.markdown = text;
          for (const w of decoded.warnings) {
            const code = /FRONT_MATTER/.test(w.code) ? FormatWarningCodes.FRONT_MATTER_INVALID : FormatWarningCodes.PAGE_PARSE_WARNING;
            warnings.push(warning(code, `${path}: ${w.message}`, { path, ...(w.line !== undefined ? { line: w.line } : {}), data: { markdownCode: w.code } }));
          }
          rawUrls.set(page.id, decoded.urls);
          page.frontMatter = fields.frontMatter;
          page.frontMatterValid = fields.frontMatterValid;
          page.hidden = fields.hidden;
          page.noIndex = fields.noIndex;
          if (fields.description !== undefined) page.description = fields.description;
          if (fields.icon !== undefined) page.icon = fields.icon;
          if (fields.cover !== undefined) page.cover = { ...fields.cover };
          if (fields.layout !== undefined) page.layout = fields.layout;
          if (fields.metaLinks !== undefined) page.metaLinks = fields.metaLinks;
          if (fields.title !== undefined) {
            page.title = fields.title;
            page.titleSource = 'heading';
          }
          page.derived = fieldsFingerprint(fields);
        }
      }
    }
    if (page.titleSource !== 'heading' && tocText === undefined && page.markdown === null) page.titleSource = 'path';
    if (tocText !== undefined && tocText !== page.title) page.tocTitle = tocText;
    const emoji = leadingEmoji(page.title);
    if (emoji !== undefined) page.emoji = emoji;
    if (page.derived === '') page.derived = fieldsFingerprint({ hidden: page.hidden, noIndex: page.noIndex, frontMatter: page.frontMatter });
  };
  {
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < loads.length) {
        const i = next++;
        await loadPage(loads[i]!, pageWarnings[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(codec.concurrency, loads.length)) }, lane));
  }
  for (const list of pageWarnings) warnings.push(...list);

  // ---- slugs and URL paths ----
  const readmePath = config.readme;
  const setPaths = (list: PageModel[], parentPath: string) => {
    for (const p of list) {
      if (p.kind === 'document') {
        const file = p.git!.path;
        const isReadme = basename(file).toLowerCase() === 'readme.md';
        p.slug = isReadme ? basename(dirname(file)) : basename(file).replace(/\.md$/i, '');
        if (file === readmePath) {
          p.slug = '';
          p.path = '';
        } else p.path = parentPath === '' ? p.slug : `${parentPath}/${p.slug}`;
        setPaths(p.children, p.path);
      } else setPaths(p.children, p.kind === 'group' ? parentPath : parentPath);
    }
  };
  setPaths(pages, '');
  if (!pageByPath.has(readmePath)) {
    warnings.push(warning(FormatWarningCodes.README_MISSING, `the first page ${readmePath} is ${tree.has(readmePath) ? 'not listed in the table of contents' : 'missing'}`, { path: readmePath }));
  }

  // ---- references ----
  const pagesByPath = new Map<string, string>([...pageByPath].map(([p, page]) => [p, page.id]));
  const index: ReferenceIndex = { pagesByPath, filesByPath, exists: (p) => tree.has(p) };
  const referenced = new Set<string>();
  for (const { page } of loads) {
    const urls = rawUrls.get(page.id) ?? [];
    const refs: PageReference[] = [];
    for (const url of urls) {
      const r = resolveReference(url, page.git!.path, index);
      refs.push({ url, target: r.target });
      if (r.target.kind === 'file') referenced.add(r.target.fileId);
      if (r.problem && r.target.kind === 'unresolved') {
        const p = r.target.path;
        const inGitbookDir = /(^|\/)\.gitbook\//.test(p);
        const isPage = isMarkdownPath(p) || (!inGitbookDir && !/\.[^/]+$/.test(basename(p)));
        if (r.problem === 'unmanaged') {
          warnings.push(warning(FormatWarningCodes.LINK_UNRESOLVED, `${page.git!.path}: link ${JSON.stringify(url)} points to a file that is not a page or space file`, { path: page.git!.path, data: { url } }));
        } else if (isPage) {
          warnings.push(warning(FormatWarningCodes.LINK_UNRESOLVED, `${page.git!.path}: link ${JSON.stringify(url)} does not resolve`, { path: page.git!.path, data: { url } }));
        } else {
          warnings.push(warning(FormatWarningCodes.ASSET_MISSING, `${page.git!.path}: ${JSON.stringify(url)} names a missing file`, { path: page.git!.path, data: { url } }));
        }
      }
    }
    page.references = refs;
    if (page.cover && !isExternalUrl(page.cover.ref)) {
      const c = page.cover.ref;
      const cands = [resolvePath(root, c), resolvePath(dirname(page.git!.path), c)];
      const dec = safeDecode(c);
      if (dec !== null && dec !== c) cands.push(resolvePath(root, dec), resolvePath(dirname(page.git!.path), dec));
      const hit = cands.find((p) => p !== null && filesByPath.has(p));
      if (hit) {
        page.cover.fileId = filesByPath.get(hit)!;
        referenced.add(page.cover.fileId);
      } else warnings.push(warning(FormatWarningCodes.ASSET_MISSING, `${page.git!.path}: cover ${JSON.stringify(c)} names a missing file`, { path: page.git!.path }));
    }
  }
  for (const { page, path, fragment } of pendingLinks) {
    const target = pageByPath.get(path);
    if (target) page.target = fragment !== undefined ? { kind: 'page', pageId: target.id, anchor: fragment } : { kind: 'page', pageId: target.id };
    else warnings.push(warning(FormatWarningCodes.LINK_UNRESOLVED, `SUMMARY link ${JSON.stringify(page.href)} does not name a page of the table of contents`, { path: config.summary }));
  }
  for (const f of files) f.referenced = referenced.has(f.id);

  // ---- redirects ----
  for (const r of config.redirects) {
    const to = resolvePath(root, r.to.replace(/^\.\//, ''));
    const target = to === null ? undefined : pageByPath.get(to) ?? pageByPath.get(joinPath(to, 'README.md'));
    if (target) r.pageId = target.id;
    else warnings.push(warning(FormatWarningCodes.REDIRECT_UNRESOLVED, `redirect ${JSON.stringify(r.from)} → ${JSON.stringify(r.to)} does not name a page`, { severity: 'info', ...(config.configPath ? { path: config.configPath } : {}) }));
  }

  // ---- markdown files the TOC does not list ----
  let unlisted = 0;
  for (const path of tree.keys()) {
    if (!isWithin(path, root) || isWithin(path, gitbookDir) || !isMarkdownPath(path) || path === config.summary || pageByPath.has(path)) continue;
    unlisted++;
    warnings.push(warning(FormatWarningCodes.PAGE_NOT_IN_SUMMARY, `${path} is not listed in the table of contents and is not imported`, { severity: 'info', path }));
  }

  const revision: RevisionModel = {
    version: REVISION_MODEL_VERSION,
    config,
    pages,
    files,
    summary: {
      present: summaryPresent,
      heading: toc.style.heading,
      indent: toc.style.indent,
      bullet: toc.style.bullet,
      escapeDestinations: toc.style.escapeDestinations,
      escapeParens: toc.style.escapeParens,
      separator: toc.style.separator,
      trailingNewlines: toc.style.trailingNewlines,
      fingerprint: '',
      comments: toc.comments,
    },
  };
  if (toc.commentPlaces && toc.commentPlaces.length === toc.comments.length) {
    revision.summary.commentPlaces = toc.commentPlaces.map((c) => {
      const at = 'top' in c.after ? undefined : builtFrom.get('entry' in c.after ? c.after.entry : c.after.section);
      return { after: at?.id ?? null, blankBefore: c.blankBefore };
    });
  }
  if (summaryPresent) revision.summary.git = { oid: summaryEntry.oid, path: config.summary };
  revision.summary.fingerprint = summaryFingerprint(summaryText(revision, pagePaths(revision)));
  const docCount = [...documents(pages)].length;
  if (docCount === 0) {
    const others = [...tree.keys()].filter((p) => isWithin(p, root)).length;
    warnings.push(warning(FormatWarningCodes.NO_CONTENT, `no GitBook content under ${JSON.stringify(root || '/')}: no page in the table of contents (${others} other file${others === 1 ? '' : 's'})`, { severity: 'error', data: { root, files: others } }));
  }
  return { revision, warnings, stats: { parsed, reused, pages: docCount, files: files.length, unlisted } };
}

/** How many bytes of `bytes` are not part of a valid UTF-8 sequence, and the offset of the first (-1: none). */
export function invalidUtf8Offsets(bytes: Uint8Array): { count: number; first: number } {
  let count = 0;
  let first = -1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    let ok = need >= 0 && i + need < bytes.length;
    let cp = need === 1 ? b & 0x1f : need === 2 ? b & 0x0f : b & 0x07;
    for (let k = 1; ok && k <= need; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    // overlong forms, surrogates and code points above U+10FFFF are invalid too
    if (ok && need === 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (ok && need === 3 && (cp < 0x10000 || cp > 0x10ffff)) ok = false;
    if (ok) i += need + 1;
    else {
      count++;
      if (first < 0) first = i;
      i++;
    }
  }
  return { count, first };
}

/** Current file path of every document page that has one. */
export function pagePaths(revision: RevisionModel): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of documents(revision.pages)) if (p.git) m.set(p.id, p.git.path);
  return m;
}
