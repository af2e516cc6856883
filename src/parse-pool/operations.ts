/**
 * What a parse-pool thread can run, by name: pure functions of structured-cloneable arguments returning
 * structured-cloneable results.
 */
import { markdownToDocument } from '../api/objects/document.js';
import { pageCodecOperations } from '../format/index.js';

export const parseOperations = {
  'page.decode': pageCodecOperations.decode,
  'page.encode': pageCodecOperations.encode,
  'page.serializeNew': pageCodecOperations.serializeNew,
  'page.reserialize': pageCodecOperations.reserialize,
  /** The GitBook JSON document of a page (GET page in the `document` format). */
  'page.document': markdownToDocument,
} satisfies Record<string, (...args: never[]) => unknown>;

export type ParseOperation = keyof typeof parseOperations;
export type ParseOperationArgs<O extends ParseOperation> = Parameters<(typeof parseOperations)[O]>;
export type ParseOperationResult<O extends ParseOperation> = ReturnType<(typeof parseOperations)[O]>;
