import { createHash } from 'node:crypto';
import type { DocumentPage, FileModel, PageModel, RevisionModel } from '../format/index.js';
import { loadRevisionModel, readTexts } from '../revision/records.js';
import type { Logger } from '../log.js';
import {
  sameDeps,
  type PublicationFile,
  type PublicationLayers,
  type PublishedSiteSpace,
  type SiteRecord,
  type SiteSpaceRecord,
  type Store,
} from '../store/index.js';
import { COPY_JS, COPY_JS_PATH } from './copy-script.js';
import { CSP_META_TAG } from './csp.js';
import { esc } from './escape.js';
import { IncludeLoader, includeUrls, type PageIncludes } from './includes.js';
import { katexAssets, mathCssPath } from './katex-assets.js';
import { pageHtml, SEARCH_SHELL_PATH, searchShellHtml } from './layout.js';
import type { NavItem } from './navigation.js';
import { RENDERER_VERSION, type RenderedPage, type RenderLink, type RenderPageInput, type RenderSpec, type RenderWarning } from './render/index.js';
import { sectionLayout, type SectionLayout } from './site-sections.js';
import { SITE_CSS } from './style.js';
import { siteSpaceThemes, type SiteTheme } from './theme.js';
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
  /**
   * Pages prepared and rendered at once (default 4; the composition passes twice the parse pool's threads, so that
   * no thread waits while the event loop stages the page before): their output is staged in the site's order.
   */
  concurrency?: number;
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
  /** The page's body blob (its markdown's UTF-8 bytes); null for a page without one (raw or empty). */
  bodyHash: string | null;
  /** Set by `readFacts`. */
  facts?: BodyFacts;
}

/**
 * What a page's output needs to know of its markdown beyond its hash (the paths it includes, the specs it names,
 * whether it may hold math): kept as the `deps` of its html file, so that the next run knows them without reading
 * the body of a page whose body did not change.
 */
interface BodyFacts {
  includes: string[];
  slugs: string[];
  math: boolean;
}

const SPEC_TAG = /\{%\s*openapi-(?:operation|schemas|webhook)\b[^%]*?\bspec="([^"]+)"/g;

function factsOf(markdown: string | null): BodyFacts {
  if (markdown === null) return { includes: [], slugs: [], math: false };
  return { includes: includeUrls(markdown), slugs: [...markdown.matchAll(SPEC_TAG)].map((m) => m[1]!), math: markdown.includes('$$') };
}

const factsDeps = (bodyHash: string, f: BodyFacts): Record<string, string> => ({
  body: bodyHash,
  includes: JSON.stringify(f.includes),
  slugs: JSON.stringify(f.slugs),
  math: f.math ? '1' : '',
});

/** The facts an html file of the live publication recorded for the body `bodyHash`; null when it recorded another body. */
function factsFromDeps(deps: Record<string, string> | undefined, bodyHash: string): BodyFacts | null {
  if (deps?.body !== bodyHash || deps.includes === undefined || deps.slugs === undefined) return null;
  return { includes: JSON.parse(deps.includes) as string[], slugs: JSON.parse(deps.slugs) as string[], math: deps.math === '1' };
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
  /** Page id → body blob (text pages with a body); the bodies are read only as needed (`loadBodies`). */
  bodyHashes: Map<string, string>;
  language: string;
}

/** Where a site space's pages and files are on the site. */
interface SpaceLinks {
  prefix: string;
  hrefs: Map<string, string>;
  fileLinks: Map<string, RenderLink>;
}

/** A spec named by a page (`{% openapi-operation spec="…" %}`): its last version's hash, and its content on demand. */
type SpecVersion = { hash: string; load: () => Promise<RenderSpec> } | null;

/**
 * What the publish phases share: the inputs, the site and its sections, the warnings in the order they are raised,
 * the files of the publication as they are staged, and what each phase adds for the later ones.
 */
interface PublishRun {
  readonly deps: PublishDeps;
  readonly site: SiteRecord;
  readonly requestKey: string;
  readonly siteSpaces: SiteSpaceRecord[];
  readonly sections: SectionLayout;
  /** The first 50 warnings; `warningCount` counts them all. */
  readonly warnings: PublishWarning[];
  warningCount: number;
  /** The site spaces with content, the default first. */
  loaded: LoadedSiteSpace[];
  /** Files of the live publication by path: a file whose input key is unchanged is kept. */
  before: Map<string, PublicationFile>;
  /** The full publication the live one is stored against (or the live one): this one stores what differs from it. */
  base: { publicationId: string; files: PublicationFile[] } | null;
  /** Files of this publication, kept or written, in the order they are staged. */
  files: PublicationFile[];
  /** Contents staged and not written yet (written in batches of about `WRITE_BATCH_BYTES`), and their files. */
  blobsToWrite: Uint8Array[];
  blobBytes: number;
  unwritten: Array<Omit<PublicationFile, 'hash'> & { hash?: string }>;
  /** Files whose content is staged, in the order they are staged (their hash set once written). */
  pendingFiles: Array<Omit<PublicationFile, 'hash'> & { hash?: string }>;
  redirects: Record<string, string>;
  /** Every page of the site with its address, in site space then table of contents order. */
  planned: PlannedPage[];
  /** By index of `loaded`. */
  spaceLinks: SpaceLinks[];
  includeLoaders: IncludeLoader[];
  /** Markdown of the pages whose body was read (`loadBodies`), by page id. */
  bodies: Map<string, string>;
  titles: Map<string, string>;
  specVersions: Map<string, Promise<SpecVersion>>;
  sitemap: string[];
  llms: string[];
  rendered: number;
  reused: number;
  /** Milliseconds spent in each phase so far, and when the current one started. */
  phaseMs: Record<string, number>;
  phaseStart: number;
}

/** What every page of a site space shares: the site model (spaces, section switchers), its sidebar and theme. */
interface SiteFrame {
  siteModel: {
    title: string;
    noindex: boolean;
    spaces: Array<{ title: string; href: string }>;
    switchers: Array<ReturnType<SectionLayout['switcher']>>;
  };
  navs: NavItem[][];
  navHashes: string[];
  themes: Array<SiteTheme | undefined>;
  siteHash: string;
}

/** KaTeX's stylesheet and fonts, on a site whose pages may hold math. */
type KatexAssets = ReturnType<typeof katexAssets> | null;

/**
 * One publish run of a site: freezes the primary revision of each site space, renders every page whose inputs
 * changed since the live publication (the others keep their output), writes the site's own files (stylesheet,
 * sitemap, robots.txt, llms.txt, markdown twins, 404), stores the publication, then switches the live pointer.
 * Idempotent by `requestKey`.
 */
export async function publishSite(deps: PublishDeps, input: { organizationId: string; siteId: string; requestKey: string }): Promise<PublishOutcome | null> {
  const run = await openRun(deps, input);
  if (!run) return null;
  await loadSiteSpaces(run);
  await loadPreviousFiles(run);
  phase(run, 'load');
  planAddresses(run);
  await readFacts(run);
  const frame = await siteFrame(run);
  const katex = stageStaticAssets(run, frame);
  phase(run, 'plan');
  await renderPages(run, frame, katex);
  phase(run, 'render');
  stageSiteFiles(run, frame);
  return recordPublication(run);
}

/** Ends a phase of the run: its duration goes into the run's log line (where a publish spends its time). */
function phase(run: PublishRun, name: string): void {
  const now = performance.now();
  run.phaseMs[name] = Math.round(now - run.phaseStart);
  run.phaseStart = now;
}

function warn(run: PublishRun, w: PublishWarning): void {
  run.warningCount++;
  if (run.warnings.length < 50) run.warnings.push(w);
}

/**
 * Stages a file of the publication: the live publication's file when its input key is the same (returns false),
 * else the content, written with the others at the end (returns true).
 */
function stage(run: PublishRun, path: string, contentType: string, inputKey: string, content: string | Uint8Array, deps?: Record<string, string>): boolean {
  const old = run.before.get(path);
  if (old && old.inputKey === inputKey && (deps === undefined || sameDeps(old.deps, deps))) {
    run.files.push(old);
    return false;
  }
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  const file = { path, contentType, inputKey, ...(deps ? { deps } : {}) };
  run.blobsToWrite.push(bytes);
  run.blobBytes += bytes.byteLength;
  run.unwritten.push(file);
  run.pendingFiles.push(file);
  return true;
}

/** Stages a file whose content is a stored blob already (a page's body as its markdown twin). */
function stageBlob(run: PublishRun, path: string, contentType: string, inputKey: string, hash: string): void {
  const old = run.before.get(path);
  run.files.push(old && old.inputKey === inputKey && old.hash === hash ? old : { path, hash, contentType, inputKey });
}

/** Staged contents are written once they add up to this many bytes (the site is never held whole in memory). */
const WRITE_BATCH_BYTES = 4 * 1024 * 1024;

/** Writes the staged contents (pinned: nothing references them until the publication is stored) and sets their files' hashes. */
async function writeStaged(run: PublishRun): Promise<void> {
  if (run.blobsToWrite.length === 0) return;
  const blobs = run.blobsToWrite;
  const files = run.unwritten;
  run.blobsToWrite = [];
  run.unwritten = [];
  run.blobBytes = 0;
  const hashes = await run.deps.store.blobs.putMany(blobs, { pinMs: 24 * 3600_000 });
  files.forEach((f, i) => (f.hash = hashes[i]!));
}

/** The site, its site spaces and their sections; null when the site is not the organization's. */
async function openRun(deps: PublishDeps, input: { organizationId: string; siteId: string; requestKey: string }): Promise<PublishRun | null> {
  const { store } = deps;
  const site = await store.sites.get(input.organizationId, input.siteId);
  if (!site) return null;
  const siteSpaces = await store.sites.listSiteSpaces(site.id);
  // A site with sections: each section's site spaces at the section's address, and a section switcher on each page.
  const sections = await sectionLayout(store, site.defaultSiteSpaceId, site.id, siteSpaces);
  return {
    deps,
    site,
    requestKey: input.requestKey,
    siteSpaces,
    sections,
    warnings: [],
    warningCount: 0,
    loaded: [],
    before: new Map(),
    base: null,
    files: [],
    blobsToWrite: [],
    blobBytes: 0,
    unwritten: [],
    pendingFiles: [],
    redirects: {},
    planned: [],
    spaceLinks: [],
    includeLoaders: [],
    bodies: new Map(),
    titles: new Map(),
    specVersions: new Map(),
    sitemap: [],
    llms: [`# ${site.title}`, ''],
    rendered: 0,
    reused: 0,
    phaseMs: {},
    phaseStart: performance.now(),
  };
}

/** The primary revision of each site space (a site space without content is left out, with a warning), default first. */
async function loadSiteSpaces(run: PublishRun): Promise<void> {
  const { store } = run.deps;
  const defaultId = run.sections.defaultId;
  for (const ss of run.siteSpaces) {
    const space = await store.spaces.get(ss.spaceId);
    if (!space || !space.revisionId) {
      warn(run, { code: 'PUBLISH_BROKEN_LINK', message: `site space ${ss.path} has no content yet and is not published`, path: ss.path });
      continue;
    }
    const revision = await loadRevisionModel(store, space.revisionId, { bodies: false });
    if (!revision) continue;
    run.loaded.push({
      record: {
        siteSpaceId: ss.id,
        spaceId: space.id,
        path: ss.path,
        revisionId: space.revisionId,
        title: space.title ?? ss.path,
        default: ss.id === defaultId,
        prefix: run.sections.prefixOf(ss.id, ss.path),
      },
      model: revision.model,
      fileHashes: revision.fileHashes,
      bodyHashes: revision.bodyHashes,
      language: space.language ?? 'en',
    });
  }
  run.loaded.sort((a, b) => Number(b.record.default) - Number(a.record.default));
}

/**
 * The files of the last publications this process stored or read, by id (a publication never changes): the next run
 * on the site needs not read them back.
 */
const layersRead = new Map<string, PublicationLayers>();
const LAYERS_REMEMBERED = 8;

function remember(publicationId: string, layers: PublicationLayers): void {
  layersRead.delete(publicationId);
  layersRead.set(publicationId, layers);
  for (const id of layersRead.keys()) if (layersRead.size > LAYERS_REMEMBERED) layersRead.delete(id);
}

async function loadPreviousFiles(run: PublishRun): Promise<void> {
  const { site, deps } = run;
  if (!site.livePublicationId) return;
  const layers = layersRead.get(site.livePublicationId) ?? (await deps.store.sites.publicationLayers(site.livePublicationId));
  remember(site.livePublicationId, layers);
  run.before = new Map(layers.files.map((f) => [f.path, f]));
  run.base = layers.base;
}

/** Addresses of every page and file first: links across the site need them. */
function planAddresses(run: PublishRun): void {
  run.loaded.forEach((ss, index) => planSiteSpace(run, ss, index));
  run.titles = new Map(run.planned.map((p) => [p.page.id, p.page.title]));
}

/** A site space's page addresses, its files (kept by hash), its redirects and the loader of its includes. */
function planSiteSpace(run: PublishRun, ss: LoadedSiteSpace, index: number): void {
  const prefix = ss.record.prefix ?? (ss.record.default ? '' : `${ss.record.path}/`);
  const hrefs = new Map<string, string>();
  for (const page of documentsOf(ss.model.pages)) {
    const addr = pageAddress(prefix, page);
    hrefs.set(page.id, addr.href);
    run.planned.push({ page, siteSpace: index, ...addr, bodyHash: page.markdown === null ? null : (ss.bodyHashes.get(page.id) ?? null) });
  }
  const fileLinks = new Map<string, RenderLink>();
  for (const file of ss.model.files) {
    const hash = ss.fileHashes.get(file.id);
    if (!hash) continue;
    const path = fileAddress(file, hash);
    fileLinks.set(file.id, { href: path, name: file.name, contentType: file.contentType, ...(file.size !== undefined ? { size: file.size } : {}) });
    run.files.push({ path, hash, contentType: file.contentType || 'application/octet-stream', inputKey: hash });
  }
  for (const r of ss.model.config.redirects) {
    const target = r.pageId ? hrefs.get(r.pageId) : undefined;
    if (target !== undefined) run.redirects[prefix + r.from.replace(/^\/+|\/+$/g, '')] = target;
    else warn(run, { code: 'PUBLISH_BROKEN_LINK', message: `redirect ${r.from} → ${r.to} names no page`, path: r.from });
  }
  run.spaceLinks.push({ prefix, hrefs, fileLinks });
  run.includeLoaders.push(
    new IncludeLoader(
      run.deps.store,
      ss.model,
      ss.fileHashes,
      (t) => {
        if (t.fileId !== undefined) return fileLinks.get(t.fileId);
        const href = t.pageId !== undefined ? hrefs.get(t.pageId) : undefined;
        return href === undefined ? undefined : { href: t.anchor ? `${href}#${t.anchor}` : href, title: run.titles.get(t.pageId!) ?? '' };
      },
      documentsOf(ss.model.pages),
    ),
  );
}

/** The site model, each site space's sidebar (refused link schemes warned) and its theme (logo, colours, fonts, header links). */
async function siteFrame(run: PublishRun): Promise<SiteFrame> {
  const { site, loaded, spaceLinks, sections } = run;
  const siteModel = {
    title: site.title,
    noindex: site.visibility !== 'public',
    spaces: loaded.map((ss, i) => ({ title: ss.record.title, href: spaceLinks[i]!.prefix })),
    switchers: [null, ...loaded.map((ss) => ss.record.siteSpaceId)].map((id) =>
      sections.switcher(id, new Map(loaded.map((l, i) => [l.record.siteSpaceId, { title: l.record.title, href: spaceLinks[i]!.prefix }]))),
    ),
  };
  const navs = loaded.map((ss, i) =>
    navOf(ss.model.pages, spaceLinks[i]!.hrefs, (title, url) =>
      warn(run, {
        code: 'PUBLISH_BROKEN_LINK',
        message: `table of contents entry "${title.slice(0, 100)}": link with a refused scheme (${refusedSchemeLabel(url)}) kept as text`,
        path: ss.record.path,
      }),
    ),
  );
  const navHashes = navs.map((n) => sha(n));
  // The site's customization (logo, colours, fonts, header links): part of every page's key.
  const allHrefs = new Map(spaceLinks.flatMap((h) => [...h.hrefs]));
  const themes = await siteSpaceThemes(
    run.deps.store,
    site.id,
    loaded.map((l) => l.record.siteSpaceId),
    (id) => allHrefs.get(id),
  );
  return { siteModel, navs, navHashes, themes, siteHash: sha(siteModel) };
}

/** The stylesheet, the copy script, the themes' stylesheets and, on a site whose pages may hold math, KaTeX's files. */
function stageStaticAssets(run: PublishRun, frame: SiteFrame): KatexAssets {
  stage(run, CSS_PATH, 'text/css; charset=utf-8', sha(SITE_CSS), SITE_CSS);
  stage(run, COPY_JS_PATH, 'text/javascript; charset=utf-8', sha(COPY_JS), COPY_JS);
  for (const t of frame.themes) if (t?.css) stage(run, t.css.path, 'text/css; charset=utf-8', sha(t.css.content), t.css.content);
  const katex = run.planned.some((p) => p.facts!.math) ? katexAssets() : null;
  for (const f of katex?.files ?? []) stage(run, f.path, f.contentType, f.hash, f.content);
  return katex;
}

/** Specs of the organization named by `{% openapi-operation spec="…" %}`, looked up once a run. */
function specOf(run: PublishRun, slug: string): Promise<SpecVersion> {
  let version = run.specVersions.get(slug);
  if (!version) {
    const { store } = run.deps;
    version = (async () => {
      const spec = await store.openapi.getBySlug(run.site.organizationId, slug);
      const v = spec ? await store.openapi.latestVersion(spec.id) : null;
      return v ? { hash: v.contentHash, load: () => store.openapi.versionContent(v) } : null;
    })();
    run.specVersions.set(slug, version);
  }
  return version;
}

/** The markdown of a page: null for a page that could not be read; read by `loadBodies` when it has a body blob. */
function markdownOf(run: PublishRun, p: PlannedPage): string | null {
  if (p.page.markdown === null) return null;
  if (p.bodyHash === null) return p.page.markdown;
  const text = run.bodies.get(p.page.id);
  if (text === undefined) throw new Error(`publish: the body of page ${p.page.id} was not read`);
  return text;
}

/** Reads the bodies of `pages` not read yet (500 blobs a query). */
async function loadBodies(run: PublishRun, pages: PlannedPage[]): Promise<void> {
  const wanted = pages.filter((p) => p.bodyHash !== null && !run.bodies.has(p.page.id));
  if (wanted.length === 0) return;
  const texts = await readTexts(run.deps.store, [...new Set(wanted.map((p) => p.bodyHash!))]);
  for (const p of wanted) run.bodies.set(p.page.id, texts.get(p.bodyHash!) ?? '');
}

/** Each page's `BodyFacts`: those its html file of the live publication recorded for the same body, else read from its markdown. */
async function readFacts(run: PublishRun): Promise<void> {
  const unknown: PlannedPage[] = [];
  for (const p of run.planned) {
    const recorded = p.bodyHash !== null ? factsFromDeps(run.before.get(p.htmlPath)?.deps, p.bodyHash) : null;
    if (recorded) p.facts = recorded;
    else if (p.bodyHash === null) p.facts = factsOf(p.page.markdown);
    else unknown.push(p);
  }
  await loadBodies(run, unknown);
  for (const p of unknown) p.facts = factsOf(markdownOf(run, p));
}

/** What every page of a site space shares in its input key (renderer, frame, navigation, site, theme, language, math). */
function frameKeys(run: PublishRun, frame: SiteFrame, katex: KatexAssets): string[] {
  return run.loaded.map((ss, i) =>
    sha([RENDERER_VERSION, LAYOUT_VERSION, CSS_PATH, frame.navHashes[i], frame.siteHash, frame.themes[i] ?? null, ss.language, katex?.cssPath ?? '']),
  );
}

/**
 * Every page in order: rendered when its inputs changed, else kept; its twin, sitemap and llms.txt entries. The
 * inputs of every page come first (the bodies of the pages to render are then read at once); up to `concurrency`
 * pages are rendered at once, each staged in the site's order once it is ready.
 */
async function renderPages(run: PublishRun, frame: SiteFrame, katex: KatexAssets): Promise<void> {
  const { planned } = run;
  const keys = frameKeys(run, frame, katex);
  const inputs: PageInputs[] = [];
  for (const p of planned) inputs.push(await pageInputs(run, keys[p.siteSpace]!, p));
  await loadBodies(
    run,
    planned.filter((p, i) => keptHtml(run, p, inputs[i]!) === null),
  );
  const limit = Math.max(1, run.deps.concurrency ?? 4);
  const inFlight: Array<Promise<PreparedPage>> = [];
  let started = 0;
  const startNext = () => {
    if (started >= planned.length) return;
    const prepared = preparePage(run, planned[started]!, inputs[started]!);
    started++;
    // Awaited in order below; a failure is reported there, not as an unhandled rejection while an earlier page is awaited.
    prepared.catch(() => {});
    inFlight.push(prepared);
  };
  while (started < Math.min(limit, planned.length)) startNext();
  for (const [done, p] of planned.entries()) {
    const prepared = await inFlight.shift()!;
    startNext();
    publishPage(run, frame, katex, p, prepared);
    if (run.blobBytes >= WRITE_BATCH_BYTES) await writeStaged(run);
    run.deps.progress?.(done + 1, planned.length);
  }
}

/** What a page's output depends on, and its input key. */
interface PageInputs {
  included: PageIncludes | null;
  links: Record<string, RenderLink>;
  pageMeta: { id: string; title: string; description: string; twinHref: string };
  bodyHash: string;
  inputKey: string;
}

async function pageInputs(run: PublishRun, frameKey: string, p: PlannedPage): Promise<PageInputs> {
  const { hrefs, fileLinks } = run.spaceLinks[p.siteSpace]!;
  const facts = p.facts!;
  const included = p.page.markdown !== null ? await run.includeLoaders[p.siteSpace]!.forUrls(p.page, facts.includes) : null;
  const links: Record<string, RenderLink> = { ...included?.links, ...pageLinks(p.page, hrefs, fileLinks, run.titles) };
  const specDeps: Record<string, string> = {};
  for (const slug of new Set(facts.slugs)) {
    const v = await specOf(run, slug);
    specDeps[`spec:${slug}`] = v?.hash ?? 'missing';
  }
  const pageMeta = { id: p.page.id, title: p.page.title, description: p.page.description ?? '', twinHref: p.twinPath };
  const bodyHash = p.bodyHash ?? sha(p.page.markdown ?? `raw:${p.page.raw?.reason ?? ''}`);
  const inputKey = sha([frameKey, bodyHash, pageMeta, links, specDeps, included?.key ?? '']);
  return { included, links, pageMeta, bodyHash, inputKey };
}

/** A page's inputs, and its article when its output of the live publication cannot be kept. */
interface PreparedPage {
  inputs: PageInputs;
  /** The live publication's html file, kept (same inputs). */
  kept: PublicationFile | null;
  body: RenderedBody | null;
}

type RenderedBody = Awaited<ReturnType<typeof pageBody>>;

/** The live publication's html file of the page when its inputs are the same. */
function keptHtml(run: PublishRun, p: PlannedPage, { inputKey }: PageInputs): PublicationFile | null {
  const old = run.before.get(p.htmlPath);
  // The html file's key carries the page's math stylesheet (`<key>|<path>`): a reused page keeps it.
  return old && (old.inputKey === inputKey || old.inputKey.startsWith(`${inputKey}|`)) ? old : null;
}

async function preparePage(run: PublishRun, p: PlannedPage, inputs: PageInputs): Promise<PreparedPage> {
  const kept = keptHtml(run, p, inputs);
  return kept ? { inputs, kept, body: null } : { inputs, kept: null, body: await pageBody(run, p, inputs) };
}

function publishPage(run: PublishRun, frame: SiteFrame, katex: KatexAssets, p: PlannedPage, { inputs, kept, body }: PreparedPage): void {
  if (kept) {
    run.files.push(kept);
    const mathFile = run.before.get(kept.inputKey.slice(inputs.inputKey.length + 1));
    if (mathFile) run.files.push(mathFile);
    run.reused++;
  } else {
    renderPage(run, frame, katex, p, inputs, body!);
    run.rendered++;
  }
  // The markdown twin: the page's own markdown (what an assistant reads best); a body blob is the twin as it is.
  const twinKey = sha(['twin', inputs.bodyHash]);
  if (p.bodyHash !== null) stageBlob(run, p.twinPath, 'text/markdown; charset=utf-8', twinKey, p.bodyHash);
  else stage(run, p.twinPath, 'text/markdown; charset=utf-8', twinKey, p.page.markdown ?? '');
  if (!p.page.noIndex && !p.page.hidden) run.sitemap.push(p.href);
  run.llms.push(`- [${p.page.title}](${p.twinPath})${p.page.description ? `: ${p.page.description}` : ''}`);
}

/** A page's html in the site's frame, with its math stylesheet when it has one. */
function renderPage(run: PublishRun, frame: SiteFrame, katex: KatexAssets, p: PlannedPage, inputs: PageInputs, body: RenderedBody): void {
  const { siteModel } = frame;
  for (const w of body.warnings) warn(run, { ...w, path: p.htmlPath });
  const mathPath = 'mathCss' in body && body.mathCss ? mathCssPath(body.mathCss) : null;
  if (mathPath !== null) stage(run, mathPath, 'text/css; charset=utf-8', sha(body.mathCss), body.mathCss!);
  const stylesheets = 'math' in body && body.math && katex ? [katex.cssPath, ...(mathPath !== null ? [mathPath] : [])] : [];
  const html = pageHtml({
    site: {
      title: run.site.title,
      noindex: siteModel.noindex,
      language: run.loaded[p.siteSpace]!.language,
      cssHref: CSS_PATH,
      theme: frame.themes[p.siteSpace],
    },
    siteSpaces: siteModel.spaces.map((s, i) => ({ ...s, current: i === p.siteSpace })),
    sections: siteModel.switchers[p.siteSpace + 1],
    nav: frame.navs[p.siteSpace]!,
    page: inputs.pageMeta,
    rootPrefix: p.rootPrefix,
    body,
    stylesheets,
  });
  // A page whose code could not be highlighted yet (a thread still loading its grammars) is rendered again next time.
  const key = 'plainCode' in body && body.plainCode ? `${inputs.inputKey}:plain-code` : mathPath !== null ? `${inputs.inputKey}|${mathPath}` : inputs.inputKey;
  stage(run, p.htmlPath, 'text/html; charset=utf-8', key, html, p.bodyHash !== null ? factsDeps(p.bodyHash, p.facts!) : undefined);
}

/** A page's article: rendered off the event loop with the specs it names, or a notice for a page that could not be read. */
async function pageBody(run: PublishRun, p: PlannedPage, { links, included }: PageInputs) {
  const markdown = markdownOf(run, p);
  if (markdown === null) {
    return { html: `<p>This page could not be read as a page (${esc(p.page.raw?.reason ?? 'unreadable')}).</p>`, headings: [], summary: '', warnings: [] };
  }
  const specs: Record<string, RenderSpec> = {};
  for (const slug of new Set(p.facts!.slugs)) {
    const v = await specOf(run, slug);
    if (v) specs[`spec:${slug}`] = await v.load();
  }
  const fileHashes = run.loaded[p.siteSpace]!.fileHashes;
  for (const ref of p.page.references ?? []) {
    if (ref.target.kind !== 'file' || !/\.(ya?ml|json)$/i.test(ref.url)) continue;
    if (!/\{%\s*(openapi|swagger)\s[^%]*src="/.test(markdown)) continue;
    const hash = fileHashes.get(ref.target.fileId);
    const bytes = hash ? await run.deps.store.blobs.get(hash) : null;
    if (bytes) specs[`src:${ref.url}`] = { rootPath: 'spec', filesystem: { spec: new TextDecoder().decode(bytes) } };
  }
  return run.deps.render({ markdown, rootPrefix: p.rootPrefix, links, specs, includes: included?.includes ?? {} });
}

/** robots.txt and sitemap.xml (with a warning when the site has no absolute address), llms.txt, the search page and 404. */
function stageSiteFiles(run: PublishRun, frame: SiteFrame): void {
  const { site, deps } = run;
  const root = siteRootUrl(site.basename, deps);
  if (root === null && site.visibility === 'public')
    warn(run, {
      code: 'PUBLISH_NO_PUBLIC_URL',
      message: 'FOLIO_PUBLIC_URL is not set and no host name serves this site: sitemap.xml and robots.txt hold relative URLs',
    });
  const crawler = crawlerFiles(site.visibility === 'public', root, run.sitemap);
  stage(run, 'robots.txt', 'text/plain; charset=utf-8', sha(crawler.robots), crawler.robots);
  if (crawler.sitemap !== null) stage(run, 'sitemap.xml', 'application/xml; charset=utf-8', sha(crawler.sitemap), crawler.sitemap);
  const llmsTxt = `${run.llms.join('\n')}\n`;
  stage(run, 'llms.txt', 'text/plain; charset=utf-8', sha(llmsTxt), llmsTxt);
  const searchShell = searchShellHtml({
    site: { title: site.title, noindex: true, language: run.loaded[0]?.language ?? 'en', cssHref: CSS_PATH, theme: frame.themes[0] },
    siteSpaces: frame.siteModel.spaces.map((s) => ({ ...s, current: false })),
    sections: frame.siteModel.switchers[0],
  });
  stage(run, SEARCH_SHELL_PATH, 'text/html; charset=utf-8', sha(searchShell), searchShell);
  const notFound = `<!doctype html><html lang="en"><head><meta charset="utf-8">${CSP_META_TAG}<title>Page not found | ${esc(site.title)}</title></head><body><main id="content"><h1>Page not found</h1><p>There is no page at this address.</p></main></body></html>\n`;
  stage(run, '404.html', 'text/html; charset=utf-8', sha(notFound), notFound);
}

/** Writes the staged blobs, stores the publication (one entry a path, the last staged wins) and switches the live pointer. */
async function recordPublication(run: PublishRun): Promise<PublishOutcome> {
  const { store } = run.deps;
  const { site, rendered, reused, warnings, warningCount } = run;
  await writeStaged(run);
  for (const f of run.pendingFiles) run.files.push({ ...f, hash: f.hash! });
  const unique = new Map(run.files.map((f) => [f.path, f]));
  const files = [...unique.values()];
  const { publication, created, against } = await store.sites.createPublication({
    siteId: site.id,
    requestKey: run.requestKey,
    structure: { siteSpaces: run.loaded.map((l) => l.record), redirects: run.redirects },
    files,
    ...(run.base ? { base: run.base } : {}),
    rendered,
    reused,
  });
  if (created) remember(publication.id, { files, base: against !== null && run.base ? run.base : { publicationId: publication.id, files } });
  await store.sites.goLive(site.id, publication.id, { warningCount });
  phase(run, 'record');
  run.deps.logger.info({ siteId: site.id, publicationId: publication.id, rendered, reused, files: unique.size, phaseMs: run.phaseMs }, 'site published');
  return { publicationId: publication.id, rendered: publication.rendered, reused: publication.reused, files: unique.size, warnings, warningCount };
}

export type { SiteRecord };
