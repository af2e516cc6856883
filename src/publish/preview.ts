import { createHash } from 'node:crypto';
import type { DocumentPage, RevisionModel } from '../format/index.js';
import { loadRevisionModel } from '../revision/records.js';
import type { Store } from '../store/index.js';
import { CSS_PATH, documentsOf, fileAddress, navOf, pageAddress, pageLinks } from './build.js';
import { COPY_JS, COPY_JS_PATH } from './copy-script.js';
import { META_CSP, PAGE_CSP } from './csp.js';
import { esc } from './escape.js';
import { IncludeLoader } from './includes.js';
import { katexAssets } from './katex-assets.js';
import { pageHtml } from './layout.js';
import type { NavItem } from './navigation.js';
import type { RenderedPage, RenderLink, RenderPageInput } from './render/index.js';
import { SITE_CSS } from './style.js';

/** What a preview answers: a page, a static file of the frame, a file of the space, or nothing (null: 404). */
export interface PreviewResponse {
  contentType: string;
  body: string | Uint8Array;
  /** The Content-Security-Policy header of a page (the published pages' policy, plus the hash of its math styles). */
  csp?: string;
}

export interface PreviewInput {
  /** The revision shown: a space's primary revision, or a change request's. */
  revisionId: string;
  title: string;
  /** Path below the preview's root (`''`, `guides/install/`, `_static/…`, `_files/…`). */
  path: string;
  /** A change request's preview: the revision it started from (its changed pages are marked) and a banner. */
  base?: { revisionId: string; banner: string };
  language: string;
}

export interface PreviewDeps {
  store: Store;
  render(input: RenderPageInput): Promise<RenderedPage>;
}

const sha = (v: string) => createHash('sha256').update(v).digest('hex');

/** Pages whose markdown or title differ from the base revision's (new pages included). */
function changedPages(model: RevisionModel, base: RevisionModel | null): Set<string> {
  const before = new Map(base ? documentsOf(base.pages).map((p) => [p.id, sha(`${p.title}\0${p.description ?? ''}\0${p.markdown ?? ''}`)]) : []);
  return new Set(
    documentsOf(model.pages)
      .filter((p) => before.get(p.id) !== sha(`${p.title}\0${p.description ?? ''}\0${p.markdown ?? ''}`))
      .map((p) => p.id),
  );
}

function mark(items: NavItem[], changed: Set<string>): NavItem[] {
  return items.map((n) => ({ ...n, ...(n.id !== undefined && changed.has(n.id) ? { changed: true } : {}), children: mark(n.children, changed) }));
}

/** The frame's own files (stylesheet, copy script, KaTeX), by their site-relative path. */
function staticFile(path: string): PreviewResponse | null {
  if (path === CSS_PATH) return { contentType: 'text/css; charset=utf-8', body: SITE_CSS };
  if (path === COPY_JS_PATH) return { contentType: 'text/javascript; charset=utf-8', body: COPY_JS };
  const k = path.startsWith('_static/katex/') ? katexAssets().files.find((f) => f.path === path) : undefined;
  return k ? { contentType: k.contentType, body: k.content } : null;
}

/**
 * A read-only preview of a revision rendered on request with the published sites' renderer and frame (what the
 * `urls.app` of spaces, pages and change requests lead to): one page per request, its links relative as on a
 * site, files of the space served under `_files/`. A change request's preview marks the pages it changes.
 */
export async function renderPreview(deps: PreviewDeps, input: PreviewInput): Promise<PreviewResponse | null> {
  const fixed = staticFile(input.path);
  if (fixed) return fixed;
  const revision = await loadRevisionModel(deps.store, input.revisionId);
  if (!revision) return null;
  const { model, fileHashes } = revision;
  const docs = documentsOf(model.pages);
  const hrefs = new Map(docs.map((p) => [p.id, pageAddress('', p).href]));
  const fileLinks = new Map<string, RenderLink>();
  for (const f of model.files) {
    const hash = fileHashes.get(f.id);
    if (hash) fileLinks.set(f.id, { href: fileAddress(f, hash), name: f.name, contentType: f.contentType });
  }
  if (input.path.startsWith('_files/')) {
    const file = model.files.find((f) => fileLinks.get(f.id)?.href === input.path);
    const bytes = file ? await deps.store.blobs.get(fileHashes.get(file.id)!) : null;
    return file && bytes ? { contentType: file.contentType || 'application/octet-stream', body: bytes } : null;
  }
  const wanted = input.path === '' || input.path.endsWith('/') ? input.path : `${input.path}/`;
  const page = docs.find((p) => hrefs.get(p.id) === wanted || decodeURIComponent(hrefs.get(p.id)!) === wanted);
  if (!page) return null;
  const base = input.base ? await loadRevisionModel(deps.store, input.base.revisionId) : null;
  const nav = navOf(model.pages, hrefs, () => {});
  return previewPage(deps, { ...input, model, fileHashes, docs, hrefs, fileLinks, page, nav, baseModel: base?.model ?? null });
}

interface PageContext extends PreviewInput {
  model: RevisionModel;
  fileHashes: Map<string, string>;
  docs: DocumentPage[];
  hrefs: Map<string, string>;
  fileLinks: Map<string, RenderLink>;
  page: DocumentPage;
  nav: NavItem[];
  baseModel: RevisionModel | null;
}

async function previewPage(deps: PreviewDeps, c: PageContext): Promise<PreviewResponse> {
  const { page, hrefs, fileLinks } = c;
  const titles = new Map(c.docs.map((p) => [p.id, p.title]));
  const addr = pageAddress('', page);
  const includes = new IncludeLoader(
    deps.store,
    c.model,
    c.fileHashes,
    (t) => (t.fileId ? fileLinks.get(t.fileId) : t.pageId && hrefs.has(t.pageId) ? { href: hrefs.get(t.pageId)! } : undefined),
    c.docs,
  );
  const included = page.markdown !== null ? await includes.forPage(page, page.markdown) : null;
  const links = { ...included?.links, ...pageLinks(page, hrefs, fileLinks, titles) };
  const body =
    page.markdown === null
      ? { html: '<p>This page could not be read as a page.</p>', headings: [], summary: '', warnings: [] }
      : await deps.render({ markdown: page.markdown, rootPrefix: addr.rootPrefix, links, specs: {}, includes: included?.includes ?? {} });
  const changed = c.base ? changedPages(c.model, c.baseModel) : null;
  const katex = body.math ? katexAssets().cssPath : null;
  const html = pageHtml({
    site: { title: c.title, noindex: true, language: c.language, cssHref: CSS_PATH },
    siteSpaces: [],
    nav: changed ? mark(c.nav, changed) : c.nav,
    page: { id: page.id, title: page.title, description: page.description ?? '', twinHref: addr.twinPath },
    rootPrefix: addr.rootPrefix,
    body,
    stylesheets: katex ? [katex] : [],
  });
  // A preview is one response: the page's math styles go in a <style> allowed by its hash.
  const style = body.mathCss ? `<style>${body.mathCss}</style>\n` : '';
  const hash = body.mathCss ? ` 'sha256-${createHash('sha256').update(body.mathCss).digest('base64')}'` : '';
  const policy = (p: string) => p.replace("style-src 'self'", `style-src 'self'${hash}`);
  const banner = `<p class="preview-banner" role="note">Preview${c.base ? ` of ${esc(c.base.banner)}` : ''}${changed?.has(page.id) ? ' · this page is changed' : ''}</p>`;
  const out = html
    .replace(`content="${META_CSP}"`, `content="${policy(META_CSP)}"`)
    .replace('</head>', `${style}</head>`)
    .replace('<body>\n', `<body>\n${banner}\n`);
  return { contentType: 'text/html; charset=utf-8', body: out, csp: policy(PAGE_CSP) };
}
