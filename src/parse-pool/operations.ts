/**
 * What a parse-pool thread can run, by name: functions of structured-cloneable arguments returning
 * structured-cloneable results (or promises of them); only `openapi.process` does I/O (guarded fetches).
 */
import { documentToMarkdown, markdownToDocument } from '../document/index.js';
import { pageCodecOperations } from '../format/index.js';
import { processSpecInThread } from '../openapi/process-in-thread.js';

export const parseOperations = {
  'page.decode': pageCodecOperations.decode,
  'page.encode': pageCodecOperations.encode,
  'page.serializeNew': pageCodecOperations.serializeNew,
  'page.reserialize': pageCodecOperations.reserialize,
  /** `.gitbook.yaml` of an import or export target. */
  'config.parse': pageCodecOperations.parseConfig,
  /** The GitBook JSON document of a page (GET page in the `document` format). */
  'page.document': markdownToDocument,
  /** The markdown of a GitBook JSON document (change-request edits with a `document` body); `original` keeps a page's habits. */
  'page.fromDocument': (document: unknown, options: { original?: string; title?: string }) => documentToMarkdown(document, options),
  /** OpenAPI processing of a spec (fetches through the guard, `$ref`s, validation): `processSpecInPool`. */
  'openapi.process': processSpecInThread,
} satisfies Record<string, (...args: never[]) => unknown>;

export type ParseOperation = keyof typeof parseOperations;
export type ParseOperationArgs<O extends ParseOperation> = Parameters<(typeof parseOperations)[O]>;
export type ParseOperationResult<O extends ParseOperation> = ReturnType<(typeof parseOperations)[O]>;
