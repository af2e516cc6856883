/**
 * Revision model → changed files of a Git tree. Unchanged pages keep their bytes; changed pages
 * are regenerated with a minimal diff; SUMMARY.md is rewritten only when the TOC changed; assets
 * no page references any more are removed; unmanaged files are never touched.
 */
import { BlobUnavailableError, FormatWarningCodes, InvalidRevisionError, PageTooComplexError, warning, type FormatWarning } from './errors.js';
import { resolveSpaceConfig } from './gitbook-yaml.js';
import type { DocumentPage, ExportOptions, ExportResult, PageModel, RevisionModel, SourceTree } from './model.js';
import { fieldsFingerprint, type PageFields } from './page-codec.js';
import { inlinePageCodec } from './page-codec-runner.js';
import { basename, dirname, isMarkdownPath, isWithin, joinPath, resolvePath, safeDecode, splitFragment, isExternalUrl } from './paths.js';
import { formatReference, resolveReference, type ReferenceIndex } from './resolve-reference.js';
import { allPages, documents, summaryFingerprint, summaryText } from './summary/from-revision.js';
import { parseSummary } from './summary/parse.js';
import { inferToc } from './summary/infer.js';
import { gitBlobOid } from './source-tree.js';

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function modelFields(page: DocumentPage): PageFields {
  const f: PageFields = { hidden: page.hidden, noIndex: page.noIndex, frontMatter: page.frontMatter, frontMatterValid: page.frontMatterValid };
  if (page.titleSource === 'heading') f.title = page.title;
  if (page.description !== undefined) f.description = page.description;
  if (page.icon !== undefined) f.icon = page.icon;
  if (page.cover !== undefined) {
    const c: NonNullable<PageFields['cover']> = { ref: page.cover.ref };
    if (page.cover.y !== undefined) c.y = page.cover.y;
    if (page.cover.height !== undefined) c.height = page.cover.height;
    f.cover = c;
  }
  if (page.layout !== undefined) f.layout = page.layout;
  if (page.metaLinks !== undefined) f.metaLinks = page.metaLinks;
  return f;
}

function validate(revision: RevisionModel): void {
  const ids = new Set<string>();
  for (const p of allPages(revision.pages)) {
    if (!p.id) throw new InvalidRevisionError('a page has no id');
    if (ids.has(p.id)) throw new InvalidRevisionError(`duplicate page id ${p.id}`, { id: p.id });
    ids.add(p.id);
    if (p.kind !== 'group' && p.children.some((c) => c.kind === 'group')) throw new InvalidRevisionError(`group below top level (in page ${p.id})`, { id: p.id });
  }
}

/** Page file paths listed by the target tree's table of contents (to tell managed from unmanaged files). */
async function listedPagePaths(target: SourceTree, projectDirectory: string): Promise<Set<string>> {
  const out = new Set<string>();
  try {
    const { config } = await resolveSpaceConfig(target, projectDirectory);
    const found = target.get(config.summary);
    const entry = found?.mode === '120000' ? undefined : found;
    const toc = entry ? parseSummary(new TextDecoder().decode(await entry.read()), config.summary).toc : inferToc(target, config.root, config.readme, config.summary);
    const dir = dirname(config.summary);
    const walk = (es: typeof toc.sections[number]['entries']) => {
      for (const e of es) {
        if (e.kind === 'link' && !isExternalUrl(e.dest)) {
          const { path, fragment } = splitFragment(e.dest);
          if (fragment === undefined) {
            for (const c of [path, safeDecode(path)]) {
              const r = c === null ? null : resolvePath(dir, c);
              if (r !== null && target.has(r) && isMarkdownPath(r)) out.add(r);
            }
          }
        }
        walk(e.children);
      }
    };
    for (const s of toc.sections) walk(s.entries);
  } catch {
    // An unreadable target config means nothing there is known to be managed.
  }
  return out;
}

export async function exportRevision(input: RevisionModel, target: SourceTree, options: ExportOptions = {}): Promise<ExportResult> {
  validate(input);
  const revision: RevisionModel = structuredClone(input);
  const warnings: FormatWarning[] = [];
  const changes = new Map<string, Uint8Array | null>();
  const { config } = revision;
  const root = config.root;
  const assetsDir = joinPath(root, '.gitbook/assets');

  // ---- managed paths of the target (what may be deleted) ----
  const basePages = new Set<string>();
  const baseFiles = new Set<string>();
  if (options.base) {
    for (const p of documents(options.base.pages)) if (p.git) basePages.add(p.git.path);
    for (const f of options.base.files) if (f.git) baseFiles.add(f.git.path);
  } else {
    for (const p of await listedPagePaths(target, config.projectDirectory)) basePages.add(p);
  }
  for (const p of documents(revision.pages)) if (p.git) basePages.add(p.git.path);

  // ---- page file paths ----
  const paths = new Map<string, string>();
  const taken = new Set<string>();
  const docs = [...documents(revision.pages)];
  const moved = new Map<string, string>(); // page id → old path
  // 1. pages staying where they are
  const urlPaths = new Map<string, string>();
  const computeUrlPaths = (list: PageModel[], parent: string) => {
    for (const p of list) {
      if (p.kind === 'document') {
        const own = p.git?.path === config.readme || (p.path === '' && p.slug === '') ? '' : parent === '' ? p.slug : `${parent}/${p.slug}`;
        urlPaths.set(p.id, own);
        computeUrlPaths(p.children, own);
      } else computeUrlPaths(p.children, parent);
    }
  };
  computeUrlPaths(revision.pages, '');
  for (const p of docs) {
    if (p.git && urlPaths.get(p.id) === p.path) {
      paths.set(p.id, p.git.path);
      taken.add(p.git.path);
    }
  }
  // 2. new or moved pages: a path from the parent's folder and the slug
  const place = (list: PageModel[], dir: string) => {
    for (const p of list) {
      if (p.kind !== 'document') {
        place(p.children, dir);
        continue;
      }
      let path = paths.get(p.id);
      if (path === undefined) {
        const slug = p.slug || 'page';
        const hasChildren = p.children.length > 0;
        const make = (n: number) => {
          const s = n === 0 ? slug : `${slug}-${n}`;
          return hasChildren ? joinPath(dir, s, 'README.md') : joinPath(dir, `${s}.md`);
        };
        let n = 0;
        while (taken.has(make(n)) || (target.has(make(n)) && !basePages.has(make(n)))) n++;
        path = make(n);
        paths.set(p.id, path);
        taken.add(path);
        if (p.git) moved.set(p.id, p.git.path);
      }
      const childDir = basename(path).toLowerCase() === 'readme.md' ? dirname(path) : joinPath(dirname(path), basename(path).replace(/\.md$/i, ''));
      place(p.children, childDir);
    }
  };
  place(revision.pages, root);

  // ---- reference index of the exported layout ----
  const filePaths = new Map<string, string>(revision.files.map((f) => [f.id, f.path]));
  const index: ReferenceIndex = {
    pagesByPath: new Map([...paths].map(([id, p]) => [p, id])),
    filesByPath: new Map(revision.files.map((f) => [f.path, f.id])),
    exists: (p) => target.has(p),
  };
  const referencedNow = new Set<string>();

  // ---- the layout the revision was imported from ----
  // Destinations in an edited page's markdown are written relative to where the page was (its git
  // path), among the pages and files as they were; a new page's relative to where it goes.
  const sourceIndex: ReferenceIndex = {
    pagesByPath: new Map(docs.map((p) => [p.git?.path ?? paths.get(p.id)!, p.id])),
    filesByPath: new Map([...revision.files.flatMap((f) => (f.git ? [[f.git.path, f.id] as const] : [])), ...revision.files.map((f) => [f.path, f.id] as const)]),
    exists: (p) => target.has(p),
  };
  let oidPaths: Map<string, string> | null = null;
  const findByOid = (oid: string): string | undefined => {
    if (!oidPaths) {
      oidPaths = new Map();
      for (const [p, e] of target) if (!oidPaths.has(e.oid)) oidPaths.set(e.oid, p);
    }
    return oidPaths.get(oid);
  };
  /** Text of the blob a page was imported from, when it can be read (undefined otherwise). */
  const sourceText = async (git: { oid: string; path: string }): Promise<string | undefined> => {
    let bytes: Uint8Array | undefined;
    const at = target.get(git.path);
    const from = at?.oid === git.oid ? git.path : findByOid(git.oid);
    if (from !== undefined) bytes = await target.get(from)!.read();
    else if (options.readBlob) bytes = await options.readBlob(git.oid).catch(() => undefined);
    if (!bytes) return undefined;
    try {
      return utf8.decode(bytes);
    } catch {
      return undefined;
    }
  };

  // ---- pages ----
  const codec = options.codec ?? inlinePageCodec;
  // Serializing is synchronous: give the event loop a turn every ~50 ms (timers, heartbeats, RPC).
  let lastYield = Date.now();
  for (const page of docs) {
    if (Date.now() - lastYield > 50) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = Date.now();
    }
    const path = paths.get(page.id)!;
    // A page whose markdown is not its imported blob was edited (or is new): its references are
    // re-derived from the text, so removed uses free their assets and new links get rewritten.
    const edited = page.markdown !== null && (!page.git || gitBlobOid(encoder.encode(page.markdown)) !== page.git.oid);
    // A page too complex to parse or write within the budget is written as it is (never altered).
    let tooComplex: PageTooComplexError | null = null;
    const complex = (err: unknown): null => {
      if (!(err instanceof PageTooComplexError)) throw err;
      tooComplex = err;
      return null;
    };
    if (edited) {
      const from = page.git?.path ?? path;
      const decoded = await codec.decode(page.markdown!).catch(complex);
      if (decoded) page.references = decoded.urls.map((url) => ({ url, target: resolveReference(url, from, sourceIndex).target }));
    }
    for (const r of page.references) if (r.target.kind === 'file') referencedNow.add(r.target.fileId);
    if (page.cover?.fileId) referencedNow.add(page.cover.fileId);
    if (page.markdown === null) {
      if (page.git && path !== page.git.path) {
        const bytes = target.has(page.git.path) ? await target.get(page.git.path)!.read() : options.readBlob ? await options.readBlob(page.git.oid) : null;
        if (!bytes) throw new BlobUnavailableError(page.git.oid, page.git.path);
        changes.set(path, bytes);
      } else if (page.git && page.raw && target.get(path)?.oid !== page.git.oid) {
        // A page kept as raw bytes, into a tree that lacks them (a new repository): its bytes, unchanged.
        const bytes = options.readBlob ? await options.readBlob(page.git.oid).catch(() => null) : null;
        if (!bytes) throw new BlobUnavailableError(page.git.oid, page.git.path);
        changes.set(path, bytes);
      } else if (!page.git) {
        const text = `# ${page.title}\n`;
        page.markdown = text;
      }
      if (page.markdown === null) continue;
    }
    const fields = modelFields(page);
    const fieldsChanged = fieldsFingerprint(fields) !== page.derived;
    const rewrites = new Map<string, string>();
    for (const r of page.references) {
      let targetPath: string | undefined;
      let anchor: string | undefined;
      if (r.target.kind === 'page') {
        targetPath = paths.get(r.target.pageId);
        anchor = r.target.anchor;
      } else if (r.target.kind === 'file') targetPath = filePaths.get(r.target.fileId);
      if (targetPath === undefined) continue;
      const now = resolveReference(r.url, path, index).target;
      const same = (now.kind === 'page' && r.target.kind === 'page' && now.pageId === r.target.pageId) || (now.kind === 'file' && r.target.kind === 'file' && now.fileId === r.target.fileId);
      if (!same) rewrites.set(r.url, formatReference(r.url, path, targetPath, anchor));
    }
    let text = page.markdown;
    const written = async (): Promise<string> => {
      let out = text;
      if (edited) {
        // Changed page: a minimal diff against the imported blob, changed blocks in GitBook's current
        // style. Without a readable source blob (or for a new page) the whole page is written that way.
        const source = page.git ? await sourceText(page.git) : undefined;
        const wanted = fieldsChanged ? fields : null;
        out = source !== undefined ? await codec.encode(out, wanted, rewrites, source) : await codec.encode(await codec.serializeNew(out), wanted, rewrites);
      } else if (fieldsChanged || rewrites.size > 0) out = await codec.encode(out, fields, rewrites);
      if (options.reserialize) out = await codec.reserialize(out);
      return out;
    };
    if (tooComplex === null) text = (await written().catch(complex)) ?? text;
    if (tooComplex !== null) {
      const err: PageTooComplexError = tooComplex;
      warnings.push(warning(FormatWarningCodes.PAGE_TOO_COMPLEX, `${path} is too complex to parse (over the ${err.budget} budget); written as it is, without the changes of fields or links`, { severity: 'error', path, data: { ...err.data } }));
      rewrites.clear();
    }
    if (rewrites.size > 0) page.references = page.references.map((r) => (rewrites.has(r.url) ? { ...r, url: rewrites.get(r.url)! } : r));
    const bytes = encoder.encode(text);
    const oid = gitBlobOid(bytes);
    if (target.get(path)?.oid !== oid) changes.set(path, bytes);
    page.markdown = text;
    page.derived = fieldsFingerprint(fields);
    page.git = { oid, path };
  }
  // moved pages: remove the old file unless another page now lives there
  for (const [id, old] of moved) {
    if (!taken.has(old) && target.has(old)) changes.set(old, null);
    const p = docs.find((d) => d.id === id);
    if (p && p.markdown === null && p.git) p.git = { oid: p.git.oid, path: paths.get(id)! };
  }
  // deleted pages
  for (const old of basePages) {
    if (!taken.has(old) && target.has(old) && !changes.has(old)) changes.set(old, null);
  }
  // URL paths follow the new layout
  for (const p of docs) p.path = urlPaths.get(p.id) ?? p.path;

  // ---- SUMMARY.md ----
  const text = summaryText(revision, paths);
  const fp = summaryFingerprint(text);
  const tocChanged = fp !== revision.summary.fingerprint;
  const summaryIsSymlink = target.get(config.summary)?.mode === '120000';
  if (summaryIsSymlink && (tocChanged || options.reserialize)) {
    if (tocChanged) warnings.push(warning(FormatWarningCodes.SUMMARY_SYMLINK, `${config.summary} is a symbolic link; the changed table of contents is not written over it`, { severity: 'error', path: config.summary }));
  } else if (tocChanged || options.reserialize) {
    const bytes = encoder.encode(text);
    const oid = gitBlobOid(bytes);
    if (target.get(config.summary)?.oid !== oid) changes.set(config.summary, bytes);
    revision.summary.git = { oid, path: config.summary };
    revision.summary.present = true;
  }
  revision.summary.fingerprint = fp;

  // ---- .gitbook.yaml ----
  // Never rewritten. Written (the imported bytes) only into a tree that holds nothing of the space yet, such as a
  // new repository; a target that has the space's pages but no config had it removed on purpose.
  if (config.configPath && config.configText !== undefined && !target.has(config.configPath) && !target.has(config.readme) && !target.has(config.summary)) {
    changes.set(config.configPath, encoder.encode(config.configText));
  }

  // ---- files ----
  const keptFiles: typeof revision.files = [];
  const filePathSet = new Set(revision.files.map((f) => f.path));
  for (const f of revision.files) {
    if (f.role === 'asset' && f.referenced && !referencedNow.has(f.id)) {
      if (target.has(f.path)) changes.set(f.path, null);
      if (f.git && f.git.path !== f.path && target.has(f.git.path) && !filePathSet.has(f.git.path)) changes.set(f.git.path, null);
      continue;
    }
    keptFiles.push(f);
    const current = target.get(f.path);
    if (f.git && current?.oid === f.git.oid) continue;
    if (!f.git) {
      warnings.push(warning(FormatWarningCodes.ASSET_MISSING, `file ${f.path} has no content (no git source)`, { path: f.path }));
      continue;
    }
    const from = target.has(f.git.path) && target.get(f.git.path)!.oid === f.git.oid ? f.git.path : findByOid(f.git.oid);
    const bytes = from !== undefined ? await target.get(from)!.read() : options.readBlob ? await options.readBlob(f.git.oid) : null;
    if (!bytes) throw new BlobUnavailableError(f.git.oid, f.path);
    changes.set(f.path, bytes);
    if (f.git.path !== f.path && target.has(f.git.path) && !filePathSet.has(f.git.path)) changes.set(f.git.path, null);
    f.git = { oid: f.git.oid, path: f.path };
  }
  for (const old of baseFiles) {
    if (!filePathSet.has(old) && isWithin(old, assetsDir) && target.has(old)) changes.set(old, null);
  }
  for (const f of keptFiles) f.referenced = referencedNow.has(f.id) || (f.referenced && f.role !== 'asset');
  revision.files = keptFiles;
  return { changes, warnings, revision };
}
