/**
 * Folio's parse pool: the generic pool of `src/parse-pool/` running the operations of `./operations.ts` in threads
 * that start from `./thread.ts` (compiled `thread.js` beside this file in a build). Domain folders never import it:
 * they declare the functions they need (a page renderer, a SAML verifier, a page codec) and the composition
 * (activities, the API, the CLI) passes functions that run here.
 */
import { ParsePool as GenericParsePool, type ParsePoolOptions } from '../parse-pool/pool.js';
import type { parseOperations, PreloadFamily } from './operations.js';

const here = import.meta.url;
const thread = { url: new URL(here.endsWith('.ts') ? './thread.ts' : './thread.js', here) };

export type ParseOperations = typeof parseOperations;

export interface FolioParsePoolOptions extends ParsePoolOptions {
  /** Families the threads load before they say they are ready (default: OpenAPI processing). */
  preload?: PreloadFamily[] | string[];
}

export class ParsePool extends GenericParsePool<ParseOperations> {
  constructor(options: FolioParsePoolOptions = {}) {
    super(thread, { ...options, preload: options.preload ?? ['openapi'] });
  }
}
