import { Context, heartbeat } from '@temporalio/activity';
import { ParseBudgetExceededError } from '../src/parse-pool/errors.js';
import { operationParseTask } from '../src/parse-pool/from-config.js';
import { indexSpace } from '../src/search/index-space.js';
import type { SearchIndexInput, SearchIndexResult } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { parsePoolOf } from './parse-pool.js';

/**
 * The search index activity: src/search/index-space.ts, its pages parsed in the parse pool as the organization's work
 * within one parse budget (pages past it are indexed by their title), heartbeating while a batch parses.
 */
export function createSearchIndexActivities(deps: ActivityDeps) {
  return {
    async searchIndexSpace(input: SearchIndexInput): Promise<SearchIndexResult> {
      const pool = parsePoolOf(deps);
      const task = operationParseTask(deps.config, input.organizationId, 'search indexing', Context.current().cancellationSignal);
      let last: Record<string, unknown> = { phase: 'parsing' };
      const beat = setInterval(() => heartbeat(last), 5000);
      beat.unref();
      try {
        return await indexSpace(
          {
            store: deps.store,
            logger: deps.logger,
            progress: (details) => {
              last = details;
              heartbeat(details);
            },
            // Past its budget the language stays undetermined (no stemming), the pages are still indexed.
            detectLanguage: (sample) =>
              pool.runWith(task, 'search.detectLanguage', sample).catch((err: unknown) => {
                if (err instanceof ParseBudgetExceededError) return 'und';
                throw err;
              }),
            extract: async (markdown) => {
              try {
                return await pool.runWith(task, 'page.searchSections', markdown);
              } catch (err) {
                if (err instanceof ParseBudgetExceededError) return { skipped: err.budget === 'operation' ? 'operation' : 'page' };
                throw err;
              }
            },
          },
          input,
        );
      } finally {
        clearInterval(beat);
      }
    },
  };
}
