/**
 * The converter's page codec (`PageCodecRunner`) running in the parse pool: every page is parsed and written
 * in a pool thread, as many at once as the pool has threads; a page over a budget is PageTooComplexError (with
 * `budget: 'operation'` once the whole operation's budget is used up).
 */
import { PageTooComplexError, type PageCodecRunner } from '../format/index.js';
import { ParseBudgetExceededError } from '../parse-pool/errors.js';
import type { ParsePool } from './pool.js';
import type { ParseTaskOptions } from '../parse-pool/pool.js';

function typed<T>(p: Promise<T>): Promise<T> {
  return p.catch((err: unknown) => {
    if (err instanceof ParseBudgetExceededError) throw new PageTooComplexError(err.budget, err.limit, undefined, err.kind);
    throw err;
  });
}

/**
 * `task`: what every task of this codec runs with — the tenant key (the organization: its pages are served fairly
 * beside other organizations'), the operation's budget and the operation's cancellation signal.
 */
export function poolPageCodec(pool: ParsePool, task: ParseTaskOptions = {}): PageCodecRunner {
  return {
    // Twice the threads: a thread never waits for the importer to read the next blob.
    concurrency: pool.threads * 2,
    decode: (text, maxLength) => typed(pool.runWith(task, 'page.decode', text, maxLength)),
    encode: (text, wanted, rewrites, source) => typed(pool.runWith(task, 'page.encode', text, wanted, rewrites, source)),
    serializeNew: (text) => typed(pool.runWith(task, 'page.serializeNew', text)),
    reserialize: (text) => typed(pool.runWith(task, 'page.reserialize', text)),
    parseConfig: (text, path) => typed(pool.runWith(task, 'config.parse', text, path)),
    parseSummary: (text, path) => typed(pool.runWith(task, 'summary.parse', text, path)),
  };
}
