import { createHash } from 'node:crypto';
import type { DocumentPage, FileModel, PageModel, RevisionModel } from '../format/index.js';
import { loadRevisionModel } from '../revision/records.js';
import type { Logger } from '../log.js';
import type { PublicationFile, PublishedSiteSpace, SiteRecord, Store } from '../store/index.js';
import { COPY_JS, COPY_JS_PATH } from './copy-script.js';
import { CSP_META_TAG } from './csp.js';
import { esc } from './escape.js';
import { IncludeLoader } from './includes.js';
import { katexAssets, mathCssPath } from './katex-assets.js';
import { pageHtml, SEARCH_SHELL_PATH, searchShellHtml } from './layout.js';
import type { NavItem } from './navigation.js';
import { RENDERER_VERSION, type RenderedPage, type RenderLink, type RenderPageInput, type RenderSpec, type RenderWarning } from './render/index.js';
import { sectionLayout } from './site-sections.js';
import { SITE_CSS } from './style.js';
import { siteSpaceThemes } from './theme.js';
import { isAllowedLinkUrl, refusedSchemeLabel } from '../url-policy/index.js';

/** Part of every key: a change of the frame (layout, CSS) re-renders every page. */
const LAYOUT_VERSION = 'folio-layout-6';
const CSS_HASH = createHash('sha256').update(SITE_CSS).digest('hex').slice(0, 16);
export const CSS_PATH = `_static/site.${CSS_HASH}.css`;

const sha = (value: unknown) =>
  createHash('sha256')
    .update(typeof value === 'string' ? value : JSON.stringify(value))
    .digest('hex');

export interface PublishWarning extends Omit<RenderWarning, 'code'> {
  code: RenderWarning['code'] | 'PUBLISH_NO_PUBLIC_URL';
  path?: string;
}

export interface PublishOutcome {
  publicationId: string;
  /** Pages rendered by this run (HTML pages whose inputs changed). */
  rendered: number;
  /** Pages whose output of the last publication was kept (same inputs). */
  reused: number;
  files: number;
  warnings: PublishWarning[];
  warningCount: number;
}

export interface PublishDeps {
  store: Store;
  /** A page's article HTML (`renderPageBody`), run off the event loop within budgets (the parse pool's `publish.render`). */
  render(input: RenderPageInput): Promise<RenderedPage>;
  logger: Logger;
  /** Called after each page (heartbeats). */
  progress?: (done: number, total: number) => void;
  /** `FOLIO_PUBLIC_URL`: sites are served at `<publicUrl>/sites/<basename>/`. */
  publicUrl?: string | undefined;
  /** `FOLIO_SITE_HOSTNAMES` (host → basename): a site with a host of its own is served at its root. */
  hostnames?: Record<string, string>;
}

/**
 * The absolute address a site is served at (sitemap and robots.txt need absolute URLs): its own host name
 * (`FOLIO_SITE_HOSTNAMES`, over the public URL's scheme, else https), else `<FOLIO_PUBLIC_URL>/sites/<basename>/`;
 * null when neither is configured.
 */
export function siteRootUrl(basename: string, deps: Pick<PublishDeps, 'publicUrl' | 'hostnames'>): string | null {
  const host = Object.entries(deps.hostnames ?? {}).find(([, b]) => b === basename)?.[0];
  const scheme = deps.publicUrl !== undefined && /^http:/i.test(deps.publicUrl) ? 'http' : 'https';
  if (host !== undefined) return `${scheme}://${host}/`;
  if (deps.publicUrl === undefined) return null;
  return `${deps.publicUrl.replace(/\/+$/, '')}/sites/${encodeURIComponent(basename)}/`;
}

/** robots.txt and sitemap.xml of a site; `root` is its absolute address (relative URLs, and a warning, without one). */
function crawlerFiles(public_: boolean, root: string | null, hrefs: string[]): { robots: string; sitemap: string | null } {
  const url = (href: string) => (root ?? '') + href || './';
  if (!public_) return { robots: `User-agent: *\nDisallow: /\n`, sitemap: null };
  const robots = `User-agent: *\nAllow: /\nSitemap: ${url('sitemap.xml')}\n`;
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${hrefs.map((h) => `<url><loc>${esc(url(h))}</loc></url>`).join('\n')}\n</urlset>\n`;
  return { robots, sitemap };
}

interface PlannedPage {
  page: DocumentPage;
  /** Site-relative address of the page (`''`, `guides/install/`). */
  href: string;
  htmlPath: string;
  twinPath: string;
  rootPrefix: string;
  siteSpace: number;
}

/** Site-relative addresses: the default site space at the root, the others under their path. */
export function pageAddress(prefix: string, page: DocumentPage): { href: string; htmlPath: string; twinPath: string; rootPrefix: string } {
  const segments = page.path.split('/').filter((s) => s !== '');
  const href = prefix + segments.map((s) => `${encodeURIComponent(s)}/`).join('');
  const dir = prefix + segments.map((s) => `${s}/`).join('');
  const depth = dir.split('/').length - 1;
  return {
    href,
    htmlPath: `${dir}index.html`,
    twinPath: segments.length === 0 ? `${prefix}index.md` : `${prefix}${segments.join('/')}.md`,
    rootPrefix: '../'.repeat(depth),
  };
}

export function fileAddress(file: FileModel, hash: string): string {
  return `_files/${hash.slice(0, 32)}/${encodeURIComponent(file.name)}`;
}

export function documentsOf(pages: PageModel[]): DocumentPage[] {
  const out: DocumentPage[] = [];
  const walk = (list: PageModel[]) => {
    for (const p of list) {
      if (p.kind === 'document') out.push(p);
      walk(p.children);
    }
  };
  walk(pages);
  return out;
}

/** The sidebar of a site space; a link entry whose URL the URL policy refuses keeps its title without a link (`refused`). */
export function navOf(pages: PageModel[], hrefs: Map<string, string>, refused: (title: string, url: string) => void): NavItem[] {
  return pages
    .filter((p) => p.kind === 'document' || p.kind === 'group' || p.kind === 'link')
    .map((p): NavItem => {
      if (p.kind === 'document')
        return {
          kind: 'document',
          id: p.id,
          title: p.tocTitle ?? p.title,
          href: hrefs.get(p.id) ?? null,
          hidden: p.hidden,
          children: navOf(p.children, hrefs, refused),
        };
      if (p.kind === 'link') {
        const t = p.target;
        if (t.kind === 'url' && !isAllowedLinkUrl(t.url)) refused(p.title, t.url);
        const href = t.kind === 'url' ? (isAllowedLinkUrl(t.url) ? t.url : null) : t.kind === 'page' ? (hrefs.get(t.pageId) ?? null) : null;
        return { kind: 'link', title: p.title, href: href !== null && t.kind === 'page' && t.anchor ? `${href}#${t.anchor}` : href, children: [] };
      }
      return { kind: 'group', title: p.title, href: null, children: navOf(p.children, hrefs, refused) };
    });
}

/** Where the destinations of a page's references lead on the site (pages by address, files by `_files/…`). */
export function pageLinks(
  page: DocumentPage,
  hrefs: Map<string, string>,
  fileLinks: Map<string, RenderLink>,
  titles: Map<string, string>,
): Record<string, RenderLink> {
  const links: Record<string, RenderLink> = {};
  for (const ref of page.references ?? []) {
    const t = ref.target;
    if (t.kind === 'page') {
      const href = hrefs.get(t.pageId);
      if (href !== undefined) links[ref.url] = { href: t.anchor ? `${href}#${t.anchor}` : href, title: titles.get(t.pageId) ?? '' };
    } else if (t.kind === 'file') {
      const link = fileLinks.get(t.fileId);
      if (link) links[ref.url] = link;
    }
  }
  return links;
}

interface LoadedSiteSpace {
  record: PublishedSiteSpace;
  model: RevisionModel;
  fileHashes: Map<string, string>;
  language: string;
}

/**
 * One publish run of a site: freezes the primary revision of each site space, renders every page whose inputs
 * changed since the live publication (the others keep their output), writes the site's own files (stylesheet,
 * sitemap, robots.txt, llms.txt, markdown twins, 404), stores the publication, then switches the live pointer.
 * Idempotent by `requestKey`.
 */
// eslint-disable-next-line max-lines-per-function -- 248 lines, still to split (issue 32)
export async function publishSite(deps: PublishDeps, input: { organizationId: string; siteId: string; requestKey: string }): Promise<PublishOutcome | null> {
  const { store } = deps;
  const site = await store.sites.get(input.organizationId, input.siteId);
  if (!site) return null;
  const siteSpaces = await store.sites.listSiteSpaces(site.id);
  // A site with sections: each section's site spaces at the section's address, and a section switcher on each page.
  const sections = await sectionLayout(store, site.defaultSiteSpaceId, site.id, siteSpaces);
  const defaultId = sections.defaultId;
  const warnings: PublishWarning[] = [];
  let warningCount = 0;
  const warn = (w: PublishWarning) => {
    warningCount++;
    if (warnings.length < 50) warnings.push(w);
  };

  const loaded: LoadedSiteSpace[] = [];
  for (const ss of siteSpaces) {
    const space = await store.spaces.get(ss.spaceId);
    if (!space || !space.revisionId) {
      warn({ code: 'PUBLISH_BROKEN_LINK', message: `site space ${ss.path} has no content yet and is not published`, path: ss.path });
      continue;
    }
    const revision = await loadRevisionModel(store, space.revisionId);
    if (!revision) continue;
    loaded.push({
      record: {
        siteSpaceId: ss.id,
        spaceId: space.id,
        path: ss.path,
        revisionId: space.revisionId,
        title: space.title ?? ss.path,
        default: ss.id === defaultId,
        prefix: sections.prefixOf(ss.id, ss.path),
      },
      model: revision.model,
      fileHashes: revision.fileHashes,
      language: space.language ?? 'en',
    });
  }
  loaded.sort((a, b) => Number(b.record.default) - Number(a.record.default));

  const previous = site.livePublicationId ? await store.sites.publicationFiles(site.livePublicationId) : [];
  const before = new Map(previous.map((f) => [f.path, f]));
  const files: PublicationFile[] = [];
  const redirects: Record<string, string> = {};
  const sitemap: string[] = [];
  const llms: string[] = [`# ${site.title}`, ''];

  // Addresses of every page and file first: links across the site need them.
  const planned: PlannedPage[] = [];
  const spaceHrefs: Array<{ prefix: string; hrefs: Map<string, string>; fileLinks: Map<string, RenderLink> }> = [];
  const includeLoaders: IncludeLoader[] = [];
  loaded.forEach((ss, index) => {
    const prefix = ss.record.prefix ?? (ss.record.default ? '' : `${ss.record.path}/`);
    const hrefs = new Map<string, string>();
    for (const page of documentsOf(ss.model.pages)) {
      const addr = pageAddress(prefix, page);
      hrefs.set(page.id, addr.href);
      planned.push({ page, siteSpace: index, ...addr });
    }
    const fileLinks = new Map<string, RenderLink>();
    for (const file of ss.model.files) {
      const hash = ss.fileHashes.get(file.id);
      if (!hash) continue;
      const path = fileAddress(file, hash);
      fileLinks.set(file.id, { href: path, name: file.name, contentType: file.contentType, ...(file.size !== undefined ? { size: file.size } : {}) });
      files.push({ path, hash, contentType: file.contentType || 'application/octet-stream', inputKey: hash });
    }
    for (const r of ss.model.config.redirects) {
      const target = r.pageId ? hrefs.get(r.pageId) : undefined;
      if (target !== undefined) redirects[prefix + r.from.replace(/^\/+|\/+$/g, '')] = target;
      else warn({ code: 'PUBLISH_BROKEN_LINK', message: `redirect ${r.from} → ${r.to} names no page`, path: r.from });
    }
    spaceHrefs.push({ prefix, hrefs, fileLinks });
    includeLoaders.push(
      new IncludeLoader(
        store,
        ss.model,
        ss.fileHashes,
        (t) => {
          if (t.fileId !== undefined) return fileLinks.get(t.fileId);
          const href = t.pageId !== undefined ? hrefs.get(t.pageId) : undefined;
          return href === undefined ? undefined : { href: t.anchor ? `${href}#${t.anchor}` : href, title: titles.get(t.pageId!) ?? '' };
        },
        documentsOf(ss.model.pages),
      ),
    );
  });
  const titles = new Map(planned.map((p) => [p.page.id, p.page.title]));
  const siteModel = {
    title: site.title,
    noindex: site.visibility !== 'public',
    spaces: loaded.map((ss, i) => ({ title: ss.record.title, href: spaceHrefs[i]!.prefix })),
    switchers: [null, ...loaded.map((ss) => ss.record.siteSpaceId)].map((id) =>
      sections.switcher(id, new Map(loaded.map((l, i) => [l.record.siteSpaceId, { title: l.record.title, href: spaceHrefs[i]!.prefix }]))),
    ),
  };
  const navs = loaded.map((ss, i) =>
    navOf(ss.model.pages, spaceHrefs[i]!.hrefs, (title, url) =>
      warn({
        code: 'PUBLISH_BROKEN_LINK',
        message: `table of contents entry "${title.slice(0, 100)}": link with a refused scheme (${refusedSchemeLabel(url)}) kept as text`,
        path: ss.record.path,
      }),
    ),
  );
  const navHashes = navs.map((n) => sha(n));
  // The site's customization (logo, colours, fonts, header links): part of every page's key.
  const allHrefs = new Map(spaceHrefs.flatMap((h) => [...h.hrefs]));
  const themes = await siteSpaceThemes(
    store,
    site.id,
    loaded.map((l) => l.record.siteSpaceId),
    (id) => allHrefs.get(id),
  );
  const siteHash = sha(siteModel);

  // Specs of the organization named by `{% openapi-operation spec="…" %}`: their last version's hash is an input.
  const specVersions = new Map<string, { hash: string; load: () => Promise<RenderSpec> } | null>();
  async function specOf(slug: string) {
    if (!specVersions.has(slug)) {
      const spec = await store.openapi.getBySlug(site!.organizationId, slug);
      const version = spec ? await store.openapi.latestVersion(spec.id) : null;
      specVersions.set(slug, version ? { hash: version.contentHash, load: () => store.openapi.versionContent(version) } : null);
    }
    return specVersions.get(slug)!;
  }

  let rendered = 0;
  let reused = 0;
  const blobsToWrite: Uint8Array[] = [];
  const pendingFiles: Array<Omit<PublicationFile, 'hash'> & { index: number }> = [];
  const put = (path: string, contentType: string, inputKey: string, content: string | Uint8Array) => {
    const old = before.get(path);
    if (old && old.inputKey === inputKey) {
      files.push(old);
      return false;
    }
    blobsToWrite.push(typeof content === 'string' ? new TextEncoder().encode(content) : content);
    pendingFiles.push({ path, contentType, inputKey, index: blobsToWrite.length - 1 });
    return true;
  };

  put(CSS_PATH, 'text/css; charset=utf-8', sha(SITE_CSS), SITE_CSS);
  put(COPY_JS_PATH, 'text/javascript; charset=utf-8', sha(COPY_JS), COPY_JS);
  for (const t of themes) if (t?.css) put(t.css.path, 'text/css; charset=utf-8', sha(t.css.content), t.css.content);
  // KaTeX's stylesheet and fonts, on a site whose pages may hold math.
  const katex = planned.some((p) => p.page.markdown?.includes('$$')) ? katexAssets() : null;
  for (const f of katex?.files ?? []) put(f.path, f.contentType, f.hash, f.content);
  let done = 0;
  for (const p of planned) {
    const ss = loaded[p.siteSpace]!;
    const { hrefs, fileLinks } = spaceHrefs[p.siteSpace]!;
    const markdown = p.page.markdown;
    const included = markdown !== null ? await includeLoaders[p.siteSpace]!.forPage(p.page, markdown) : null;
    const links: Record<string, RenderLink> = { ...included?.links, ...pageLinks(p.page, hrefs, fileLinks, titles) };
    const specDeps: Record<string, string> = {};
    const slugs = markdown ? [...markdown.matchAll(/\{%\s*openapi-(?:operation|schemas|webhook)\b[^%]*?\bspec="([^"]+)"/g)].map((m) => m[1]!) : [];
    for (const slug of new Set(slugs)) {
      const v = await specOf(slug);
      specDeps[`spec:${slug}`] = v?.hash ?? 'missing';
    }
    const pageMeta = { id: p.page.id, title: p.page.title, description: p.page.description ?? '', twinHref: p.twinPath };
    const bodyHash = sha(markdown ?? `raw:${p.page.raw?.reason ?? ''}`);
    const inputKey = sha([
      RENDERER_VERSION,
      LAYOUT_VERSION,
      CSS_PATH,
      bodyHash,
      pageMeta,
      navHashes[p.siteSpace],
      siteHash,
      themes[p.siteSpace] ?? null,
      ss.language,
      links,
      specDeps,
      included?.key ?? '',
      katex?.cssPath ?? '',
    ]);
    const old = before.get(p.htmlPath);
    // The html file's key carries the page's math stylesheet (`<key>|<path>`): a reused page keeps it.
    if (old && (old.inputKey === inputKey || old.inputKey.startsWith(`${inputKey}|`))) {
      files.push(old);
      const mathFile = before.get(old.inputKey.slice(inputKey.length + 1));
      if (mathFile) files.push(mathFile);
      reused++;
    } else {
      let body;
      if (markdown === null) {
        body = { html: `<p>This page could not be read as a page (${esc(p.page.raw?.reason ?? 'unreadable')}).</p>`, headings: [], summary: '', warnings: [] };
      } else {
        const specs: Record<string, RenderSpec> = {};
        for (const slug of new Set(slugs)) {
          const v = await specOf(slug);
          if (v) specs[`spec:${slug}`] = await v.load();
        }
        for (const ref of p.page.references ?? []) {
          if (ref.target.kind !== 'file' || !/\.(ya?ml|json)$/i.test(ref.url)) continue;
          if (!/\{%\s*(openapi|swagger)\s[^%]*src="/.test(markdown)) continue;
          const hash = ss.fileHashes.get(ref.target.fileId);
          const bytes = hash ? await store.blobs.get(hash) : null;
          if (bytes) specs[`src:${ref.url}`] = { rootPath: 'spec', filesystem: { spec: new TextDecoder().decode(bytes) } };
        }
        body = await deps.render({ markdown, rootPrefix: p.rootPrefix, links, specs, includes: included?.includes ?? {} });
      }
      for (const w of body.warnings) warn({ ...w, path: p.htmlPath });
      const mathPath = 'mathCss' in body && body.mathCss ? mathCssPath(body.mathCss) : null;
      if (mathPath !== null) put(mathPath, 'text/css; charset=utf-8', sha(body.mathCss), body.mathCss!);
      const stylesheets = 'math' in body && body.math && katex ? [katex.cssPath, ...(mathPath !== null ? [mathPath] : [])] : [];
      const html = pageHtml({
        site: { title: site.title, noindex: siteModel.noindex, language: ss.language, cssHref: CSS_PATH, theme: themes[p.siteSpace] },
        siteSpaces: siteModel.spaces.map((s, i) => ({ ...s, current: i === p.siteSpace })),
        sections: siteModel.switchers[p.siteSpace + 1],
        nav: navs[p.siteSpace]!,
        page: pageMeta,
        rootPrefix: p.rootPrefix,
        body,
        stylesheets,
      });
      // A page whose code could not be highlighted yet (a thread still loading its grammars) is rendered again next time.
      const key = 'plainCode' in body && body.plainCode ? `${inputKey}:plain-code` : mathPath !== null ? `${inputKey}|${mathPath}` : inputKey;
      put(p.htmlPath, 'text/html; charset=utf-8', key, html);
      rendered++;
    }
    // The markdown twin: the page's own markdown (what an assistant reads best).
    put(p.twinPath, 'text/markdown; charset=utf-8', sha(['twin', bodyHash]), markdown ?? '');
    if (!p.page.noIndex && !p.page.hidden) sitemap.push(p.href);
    llms.push(`- [${p.page.title}](${p.twinPath})${p.page.description ? `: ${p.page.description}` : ''}`);
    deps.progress?.(++done, planned.length);
  }

  const root = siteRootUrl(site.basename, deps);
  if (root === null && site.visibility === 'public')
    warn({
      code: 'PUBLISH_NO_PUBLIC_URL',
      message: 'FOLIO_PUBLIC_URL is not set and no host name serves this site: sitemap.xml and robots.txt hold relative URLs',
    });
  const crawler = crawlerFiles(site.visibility === 'public', root, sitemap);
  put('robots.txt', 'text/plain; charset=utf-8', sha(crawler.robots), crawler.robots);
  if (crawler.sitemap !== null) put('sitemap.xml', 'application/xml; charset=utf-8', sha(crawler.sitemap), crawler.sitemap);
  const llmsTxt = `${llms.join('\n')}\n`;
  put('llms.txt', 'text/plain; charset=utf-8', sha(llmsTxt), llmsTxt);
  const searchShell = searchShellHtml({
    site: { title: site.title, noindex: true, language: loaded[0]?.language ?? 'en', cssHref: CSS_PATH, theme: themes[0] },
    siteSpaces: siteModel.spaces.map((s) => ({ ...s, current: false })),
    sections: siteModel.switchers[0],
  });
  put(SEARCH_SHELL_PATH, 'text/html; charset=utf-8', sha(searchShell), searchShell);
  const notFound = `<!doctype html><html lang="en"><head><meta charset="utf-8">${CSP_META_TAG}<title>Page not found | ${esc(site.title)}</title></head><body><main id="content"><h1>Page not found</h1><p>There is no page at this address.</p></main></body></html>\n`;
  put('404.html', 'text/html; charset=utf-8', sha(notFound), notFound);

  const hashes = blobsToWrite.length > 0 ? await store.blobs.putMany(blobsToWrite, { pinMs: 24 * 3600_000 }) : [];
  for (const f of pendingFiles) files.push({ path: f.path, hash: hashes[f.index]!, contentType: f.contentType, inputKey: f.inputKey });
  const unique = new Map(files.map((f) => [f.path, f]));
  const { publication } = await store.sites.createPublication({
    siteId: site.id,
    requestKey: input.requestKey,
    structure: { siteSpaces: loaded.map((l) => l.record), redirects },
    files: [...unique.values()],
    rendered,
    reused,
  });
  await store.sites.goLive(site.id, publication.id, { warningCount });
  deps.logger.info({ siteId: site.id, publicationId: publication.id, rendered, reused, files: unique.size }, 'site published');
  return { publicationId: publication.id, rendered: publication.rendered, reused: publication.reused, files: unique.size, warnings, warningCount };
}

export type { SiteRecord };
