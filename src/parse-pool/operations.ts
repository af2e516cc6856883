/**
 * What a parse-pool thread can run, by name: functions of structured-cloneable arguments returning
 * structured-cloneable results (or promises of them); only `openapi.process` does I/O (guarded fetches).
 */
import { documentToMarkdown, markdownToDocument } from '../document/index.js';
import { pageCodecOperations } from '../format/index.js';
import { processSpecInThread } from '../openapi/process-in-thread.js';
import { assemblePage, extractSegments } from '../translate/segments.js';
import { searchSections } from '../format/index.js';
import { analyzeHtmlPage, convertHtmlPage } from '../webimport/html-page.js';
import { renderPageBody } from '../publish/render/index.js';

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
  'page.document': markdownToDocument,
  /** The markdown of a GitBook JSON document (change-request edits with a `document` body); `original` keeps a page's habits. */
  'page.fromDocument': (document: unknown, options: { original?: string; title?: string }) => documentToMarkdown(document, options),
  /** OpenAPI processing of a spec (fetches through the guard, `$ref`s, validation): `processSpecInPool`. */
  'openapi.process': processSpecInThread,
  /** The segments of a page to translate (src/translate/). */
  'translate.extract': extractSegments,
  /** A page with its segments replaced by their translations. */
  'translate.assemble': assemblePage,
  /** The searchable sections of a page (search indexing). */
  'page.searchSections': searchSections,
  /** Website import, during the crawl: a fetched page's title, navigation, links and assets. */
  'html.analyze': analyzeHtmlPage,
  /** Website import, after the crawl: a page's main content as GitBook markdown, links and assets rewritten. */
  'html.convert': convertHtmlPage,
  /** A page's article HTML for a published site (src/publish/). */
  'publish.render': renderPageBody,
} satisfies Record<string, (...args: never[]) => unknown>;

export type ParseOperation = keyof typeof parseOperations;
export type ParseOperationArgs<O extends ParseOperation> = Parameters<(typeof parseOperations)[O]>;
export type ParseOperationResult<O extends ParseOperation> = ReturnType<(typeof parseOperations)[O]>;
