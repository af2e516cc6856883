import { heartbeat } from '@temporalio/activity';
import { ParseBudgetExceededError } from '../src/parse-pool/errors.js';
import { indexSpace } from '../src/search/index-space.js';
import type { SearchIndexInput, SearchIndexResult } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { parsePoolOf } from './parse-pool.js';

/** The search index activity: src/search/index-space.ts, with the page parser in the parse pool and heartbeats. */
export function createSearchIndexActivities(deps: ActivityDeps) {
  return {
    async searchIndexSpace(input: SearchIndexInput): Promise<SearchIndexResult> {
      const pool = parsePoolOf(deps);
      return indexSpace(
        {
          store: deps.store,
          logger: deps.logger,
          progress: (details) => heartbeat(details),
          extract: async (markdown) => {
            try {
              return await pool.run('page.searchSections', markdown);
            } catch (err) {
              if (err instanceof ParseBudgetExceededError) return null;
              throw err;
            }
          },
        },
        input,
      );
    },
  };
}
