/**
 * The converter's page codec (`PageCodecRunner`) running in the parse pool: every page is parsed and written
 * in a pool thread, as many at once as the pool has threads; a page over a budget is PageTooComplexError.
 */
import { PageTooComplexError, type PageCodecRunner } from '../format/index.js';
import { ParseBudgetExceededError } from './errors.js';
import type { ParsePool } from './pool.js';

function typed<T>(p: Promise<T>): Promise<T> {
  return p.catch((err: unknown) => {
    if (err instanceof ParseBudgetExceededError) throw new PageTooComplexError(err.budget, err.limit);
    throw err;
  });
}

export function poolPageCodec(pool: ParsePool): PageCodecRunner {
  return {
    // Twice the threads: a thread never waits for the importer to read the next blob.
    concurrency: pool.threads * 2,
    decode: (text, maxLength) => typed(pool.run('page.decode', text, maxLength)),
    encode: (text, wanted, rewrites, source) => typed(pool.run('page.encode', text, wanted, rewrites, source)),
    serializeNew: (text) => typed(pool.run('page.serializeNew', text)),
    reserialize: (text) => typed(pool.run('page.reserialize', text)),
    parseConfig: (text, path) => typed(pool.run('config.parse', text, path)),
    parseSummary: (text, path) => typed(pool.run('summary.parse', text, path)),
  };
}
