/**
 * Where page parsing and serialization run. The converter calls these asynchronous functions; the default
 * runs them in this thread (`inlinePageCodec`), a worker process injects one that runs them in a thread pool
 * with time and memory budgets (`src/parse-pool`). Arguments and results are structured-cloneable.
 * A runner rejects with `PageTooComplexError` when a page goes over a budget.
 */
import { PageTooComplexError, isStackOverflow } from './errors.js';
import { decodePage, encodePage, reserializePage, serializeNewPage, type DecodedPage, type PageFields } from './page-codec.js';
import { parseGitbookYaml, type ParsedGitbookYaml } from './gitbook-yaml-parse.js';
import { parseSummary, type ParsedSummary } from './summary/parse.js';

/** What the importer needs of a decoded page (no syntax tree, no class instances). */
export type DecodedPageSummary = Pick<DecodedPage, 'fields' | 'urls' | 'warnings'>;

export interface PageCodecRunner {
  /** How many pages the converter may hand over at once (1: one after the other). */
  readonly concurrency: number;
  decode(text: string, maxLength?: number): Promise<DecodedPageSummary>;
  /** `encodePage` with the destination rewrites as a map (url → new url). */
  encode(text: string, wanted: PageFields | null, rewrites: Map<string, string>, source?: string): Promise<string>;
  serializeNew(text: string): Promise<string>;
  reserialize(text: string): Promise<string>;
  /** `.gitbook.yaml` text → what it says (untrusted YAML, parsed with the same budgets as a page). */
  parseConfig(text: string, path: string): Promise<ParsedGitbookYaml>;
  /** `SUMMARY.md` text → the table of contents (untrusted markdown, parsed with the same budgets as a page). */
  parseSummary(text: string, path: string): Promise<ParsedSummary>;
}

/** The page codec operations by name, as run by any runner (also inside a worker thread). */
export const pageCodecOperations = {
  decode(text: string, maxLength?: number): DecodedPageSummary {
    const d = decodePage(text, maxLength);
    return { fields: d.fields, urls: d.urls, warnings: d.warnings };
  },
  encode(text: string, wanted: PageFields | null, rewrites: Map<string, string>, source?: string): string {
    return encodePage(text, wanted, (url) => rewrites.get(url), source);
  },
  serializeNew(text: string): string {
    return serializeNewPage(text);
  },
  reserialize(text: string): string {
    return reserializePage(text);
  },
  parseConfig(text: string, path: string): ParsedGitbookYaml {
    return parseGitbookYaml(text, path);
  },
  parseSummary(text: string, path: string): ParsedSummary {
    return parseSummary(text, path);
  },
};

export type PageCodecOperation = keyof typeof pageCodecOperations;

function guarded<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (err) {
    if (isStackOverflow(err)) return Promise.reject(new PageTooComplexError('stack', undefined, 'nested too deeply'));
    return Promise.reject(err);
  }
}

/** Runs the codec in the calling thread (no time or memory budget; a stack overflow is PageTooComplexError). */
export const inlinePageCodec: PageCodecRunner = {
  concurrency: 1,
  decode: (text, maxLength) => guarded(() => pageCodecOperations.decode(text, maxLength)),
  encode: (text, wanted, rewrites, source) => guarded(() => pageCodecOperations.encode(text, wanted, rewrites, source)),
  serializeNew: (text) => guarded(() => pageCodecOperations.serializeNew(text)),
  reserialize: (text) => guarded(() => pageCodecOperations.reserialize(text)),
  parseConfig: (text, path) => guarded(() => pageCodecOperations.parseConfig(text, path)),
  parseSummary: (text, path) => guarded(() => pageCodecOperations.parseSummary(text, path)),
};
