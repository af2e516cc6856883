/**
 * What a parse-pool thread can run, by name: functions of structured-cloneable arguments returning
 * structured-cloneable results (or promises of them); only `openapi.process` does I/O (guarded fetches).
 * The page codec is loaded with the thread; OpenAPI processing too unless the pool says otherwise (`preloadOperations`:
 * the spec pool's budget counts a task's busy time, not loading); every other family (documents, translation, search, website
 * import, publishing, OpenAPI in a page thread) is loaded on its first task, so a thread that only parses pages stays
 * small within its memory budget and a thread ended by a budget is replaced quickly (a third less to load).
 */
import { pageCodecOperations } from '../format/index.js';
import type { documentToMarkdown, markdownToDocument } from '../document/index.js';
import type { processSpecInThread } from '../openapi/process-in-thread.js';
import type { assemblePage, extractSegments } from '../translate/segments.js';
import type { searchSections } from '../search/sections.js';
import type { detectLanguage } from '../search/languages.js';
import type { analyzeHtmlPage, convertHtmlPage } from '../webimport/html-page.js';
import type { parseSitemap } from '../webimport/sitemap.js';
import type { renderPageWithGrammars } from '../publish/render/index.js';
import type { convertInputFile } from '../fileimport/convert-file.js';
import type { verifySamlResponse } from '../people/saml-verify.js';
import type { mergePageText } from '../change-requests/block-merge.js';

/** An operation of a module loaded on first use. */
function lazy<F extends (...args: never[]) => unknown>(load: () => Promise<F>): (...args: Parameters<F>) => Promise<Awaited<ReturnType<F>>> {
  let loaded: Promise<F> | undefined;
  return async (...args: Parameters<F>): Promise<Awaited<ReturnType<F>>> => {
    loaded ??= load();
    const fn = await loaded;
    const value: unknown = await fn(...args);
    return value as Awaited<ReturnType<F>>;
  };
}

export const parseOperations = {
  'page.decode': pageCodecOperations.decode,
  'page.encode': pageCodecOperations.encode,
  'page.serializeNew': pageCodecOperations.serializeNew,
  'page.reserialize': pageCodecOperations.reserialize,
  /** `.gitbook.yaml` of an import or export target. */
  'config.parse': pageCodecOperations.parseConfig,
  /** `SUMMARY.md` of an import or export target. */
  'summary.parse': pageCodecOperations.parseSummary,
  /** The GitBook JSON document of a page (GET page in the `document` format). */
  'page.document': lazy<typeof markdownToDocument>(async () => (await import('../document/index.js')).markdownToDocument),
  /** The markdown of a GitBook JSON document (change-request edits with a `document` body); `original` keeps a page's habits. */
  'page.fromDocument': lazy(async () => {
    const { documentToMarkdown: toMarkdown } = await import('../document/index.js');
    return (document: unknown, options: { original?: string; title?: string }): ReturnType<typeof documentToMarkdown> => toMarkdown(document, options);
  }),
  /** Change-request merges: the three-way merge of one page's markdown, block by block (src/change-requests/block-merge.ts). */
  'page.merge3': lazy<typeof mergePageText>(async () => (await import('../change-requests/block-merge.js')).mergePageText),
  /** OpenAPI processing of a spec (fetches through the guard, `$ref`s, validation): `processSpecInPool`. */
  'openapi.process': lazy<typeof processSpecInThread>(async () => (await import('../openapi/process-in-thread.js')).processSpecInThread),
  /** The segments of a page to translate (src/translate/). */
  'translate.extract': lazy<typeof extractSegments>(async () => (await import('../translate/segments.js')).extractSegments),
  /** A page with its segments replaced by their translations. */
  'translate.assemble': lazy<typeof assemblePage>(async () => (await import('../translate/segments.js')).assemblePage),
  /** The searchable sections of a page (search indexing). */
  'page.searchSections': lazy<typeof searchSections>(async () => (await import('../search/sections.js')).searchSections),
  /** The language of a sample of a space's text, when the space has none (search indexing: stemming). */
  'search.detectLanguage': lazy<typeof detectLanguage>(async () => (await import('../search/languages.js')).detectLanguage),
  /** Website import, during the crawl: a fetched page's title, navigation, links and assets. */
  'html.analyze': lazy<typeof analyzeHtmlPage>(async () => (await import('../webimport/html-page.js')).analyzeHtmlPage),
  /** Website import, during discovery: the page URLs and nested sitemaps of a fetched sitemap (gzipped or not). */
  'sitemap.parse': lazy<typeof parseSitemap>(async () => (await import('../webimport/sitemap.js')).parseSitemap),
  /** Website import, after the crawl: a page's main content as GitBook markdown, links and assets rewritten. */
  'html.convert': lazy<typeof convertHtmlPage>(async () => (await import('../webimport/html-page.js')).convertHtmlPage),
  /** File import: one uploaded file (markdown, HTML, `.docx`, `.zip` unpacked within its limits) for the import's tree. */
  'file.convert': lazy<typeof convertInputFile>(async () => (await import('../fileimport/convert-file.js')).convertInputFile),
  /** SSO: a SAML response posted to the assertion consumer service, its signature, issuer, audience and validity checked. */
  'saml.verify': lazy<typeof verifySamlResponse>(async () => (await import('../people/saml-verify.js')).verifySamlResponse),
  /** A page's article HTML for a published site (src/publish/). */
  'publish.render': lazy<typeof renderPageWithGrammars>(async () => {
    const { renderPageWithGrammars: render, waitForHighlighter } = await import('../publish/render/index.js');
    // The WASM engine once per thread (waited for a bounded time), each grammar when a page first names its language:
    // highlighting then runs synchronously in each render.
    return async (input: Parameters<typeof render>[0]) => {
      await waitForHighlighter();
      return render(input);
    };
  }),
} satisfies Record<string, (...args: never[]) => unknown>;

export type ParseOperation = keyof typeof parseOperations;
export type ParseOperationArgs<O extends ParseOperation> = Parameters<(typeof parseOperations)[O]>;
export type ParseOperationResult<O extends ParseOperation> = Awaited<ReturnType<(typeof parseOperations)[O]>>;

/** Families a pool's threads load before they say they are ready (`ParsePoolOptions.preload`). */
export const preloadOperations = {
  openapi: async (): Promise<void> => {
    await import('../openapi/process-in-thread.js');
  },
} as const;

export type PreloadFamily = keyof typeof preloadOperations;
