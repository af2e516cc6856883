import { Context, heartbeat } from '@temporalio/activity';
import { ParseBudgetExceededError } from '../src/parse-pool/errors.js';
import type { PageRecord, SearchPageInput, SearchSectionInput } from '../src/store/index.js';
import { sha256Hex } from '../src/store/index.js';
import type { SearchIndexInput, SearchIndexResult } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { parsePoolOf } from './parse-pool.js';
import { operationParseTask } from '../src/parse-pool/from-config.js';

/** Bumped when the extraction changes, so every page is rebuilt once. */
const EXTRACTION_VERSION = 1;
/** Pages parsed at once (the parse pool spreads them over its threads). */
const BATCH = 16;

interface Placed {
  page: PageRecord;
  ord: number;
  ancestors: string[];
  path: string;
}

/** Document pages in tree order (depth first), with the titles of their parents. */
function placed(tree: PageRecord[]): Placed[] {
  const out: Placed[] = [];
  let ord = 0;
  const walk = (pages: PageRecord[], ancestors: string[]) => {
    for (const page of pages) {
      if (page.kind === 'document') out.push({ page, ord: ord++, ancestors, path: page.path ?? page.slug ?? page.id });
      if (page.kind !== 'link') walk(page.children ?? [], [...ancestors, page.title]);
    }
  };
  walk(tree, []);
  return out;
}

function dataDescription(page: PageRecord): string {
  const d = page.data?.description;
  return typeof d === 'string' ? d : '';
}

export function createSearchIndexActivities(deps: ActivityDeps) {
  const { store, logger } = deps;
  return {
    /**
     * Brings the space's search index to its current primary revision: pages whose body, title, place and
     * configuration are unchanged keep their rows; the others are parsed in the parse pool into sections. A page
     * the parser cannot handle within its budget, or kept as raw bytes, is indexed by its title (and counted).
     * Idempotent: the index records the revision it holds; a revision that stopped being primary is not written.
     */
    async searchIndexSpace(input: SearchIndexInput): Promise<SearchIndexResult> {
      const none = { pages: 0, reindexed: 0, removed: 0, titleOnly: 0 };
      const space = await store.spaces.get(input.spaceId);
      if (!space || space.organizationId !== input.organizationId || !space.revisionId) return { outcome: 'skipped', ...none };
      const revisionId = space.revisionId;
      const config = await store.search.configFor(space.language);
      const state = await store.search.state(space.id);
      if (state && state.revisionId === revisionId && state.config === config) return { outcome: 'current', revisionId, ...none, pages: state.keys.size };

      const pages = placed(await store.revisions.pages(revisionId));
      const keep: Array<{ pageId: string; ord: number }> = [];
      const todo: Array<Placed & { key: string }> = [];
      for (const p of pages) {
        const key = sha256Hex(
          JSON.stringify([EXTRACTION_VERSION, config, p.page.bodyHash, p.page.title, dataDescription(p.page), p.path, p.ancestors, p.page.data?.raw ?? null]),
        );
        if (state?.keys.get(p.page.id) === key) keep.push({ pageId: p.page.id, ord: p.ord });
        else todo.push({ ...p, key });
      }
      const pool = parsePoolOf(deps);
      // The organization's work in the pool, within one parse budget (pages past it are indexed by their title); the
      // heartbeat goes on while a batch parses (a page may take its whole time budget).
      const task = operationParseTask(deps.config, space.organizationId, 'search indexing', Context.current().cancellationSignal);
      const upsert: SearchPageInput[] = [];
      let titleOnly = 0;
      let pagesDone = 0;
      const beat = setInterval(() => heartbeat({ phase: 'parsing', pagesDone, pagesToIndex: todo.length }), 5000);
      beat.unref();
      try {
        for (let i = 0; i < todo.length; i += BATCH) {
          heartbeat({ phase: 'parsing', pagesDone, pagesToIndex: todo.length });
          const batch = await Promise.all(
            todo.slice(i, i + BATCH).map(async (p): Promise<SearchPageInput> => {
              let sections: SearchSectionInput[] = [];
              let description = dataDescription(p.page);
              const bytes = p.page.data?.raw || !p.page.bodyHash ? null : await store.revisions.pageBody(revisionId, p.page.id);
              if (bytes) {
                try {
                  const found = await pool.runWith(task, 'page.searchSections', new TextDecoder().decode(bytes));
                  sections = found.sections.map((s) => ({ anchor: s.anchor, title: s.title, body: s.body }));
                  description ||= found.description;
                } catch (err) {
                  if (!(err instanceof ParseBudgetExceededError)) throw err;
                  titleOnly++;
                  // Past the operation's budget every page left is title-only: counted in the result, not logged each.
                  if (err.budget !== 'operation')
                    logger.warn({ pageId: p.page.id, budget: err.budget }, 'page too complex to index its text; indexed by its title');
                }
              } else if (p.page.data?.raw) {
                titleOnly++;
              }
              pagesDone++;
              // The page's own section (title, description, text before the first heading) always comes first.
              if (sections[0]?.anchor !== '') sections.unshift({ anchor: '', title: '', body: '' });
              return { pageId: p.page.id, contentKey: p.key, ord: p.ord, title: p.page.title, description, path: p.path, ancestors: p.ancestors, sections };
            }),
          );
          upsert.push(...batch);
        }
      } finally {
        clearInterval(beat);
      }
      heartbeat({ phase: 'writing', pagesToIndex: todo.length });
      const applied = await store.search.apply({ spaceId: space.id, organizationId: space.organizationId, revisionId, config, keep, upsert });
      const result = { revisionId, pages: pages.length, reindexed: upsert.length, removed: applied.removed, titleOnly };
      logger.info(result, applied.applied ? 'search index updated' : 'search index not written: the primary revision changed meanwhile');
      return { outcome: applied.applied ? 'indexed' : 'superseded', ...result };
    },
  };
}
