/** A run's start: the translation and its source checked, the pages of the source's current revision numbered, the run marked running. */
import type { TranslationEngineName } from '../../config/config.js';
import { NotFoundError } from '../../errors.js';
import type { PageRecord } from '../../store/index.js';
import { engineNameFor } from '../engines/index.js';
import { TranslationSourceEmptyError } from '../errors.js';
import { loadTranslation, type TranslationRunDeps, type TranslationRunRef } from './context.js';
import { reusableRun, runInputKey } from './reuse.js';

export interface BegunRun {
  sourceRevisionId: string;
  /** The source's pages, ids only (content never goes through Temporal). */
  pageIds: string[];
  engine: TranslationEngineName;
  /** The previous run's result stays (./reuse.ts): no page to translate, the finish keeps it. */
  reuse?: boolean;
}

export async function beginRun({ store, config }: TranslationRunDeps, ref: TranslationRunRef): Promise<BegunRun> {
  const t = await loadTranslation(store, ref);
  const space = await store.spaces.get(t.sourceSpaceId);
  if (!space || space.organizationId !== t.organizationId) throw new NotFoundError('space', t.sourceSpaceId);
  if (!space.revisionId) throw new TranslationSourceEmptyError(space.id);
  const pages = flattenRecords(await store.revisions.pages(space.revisionId));
  const engine = engineNameFor(config, t.organizationId);
  await store.translations.beginRun(t.id, ref.run);
  const inputKey = await runInputKey(store, t, space.revisionId);
  const previous = await reusableRun(store, t, ref.run, inputKey);
  await store.translations.progress(t.id, ref.run, { engine, sourceRevisionId: space.revisionId, pagesTotal: pages.length, inputKey });
  if (previous) {
    // Every segment is the previous run's, from the memory.
    const segments = previous.segmentsTotal;
    await store.translations.progress(t.id, ref.run, { segmentsTotal: segments, segmentsDone: segments, segmentsFromMemory: segments });
    return { sourceRevisionId: space.revisionId, pageIds: pages.map((p) => p.id), engine, reuse: true };
  }
  return { sourceRevisionId: space.revisionId, pageIds: pages.map((p) => p.id), engine };
}

function flattenRecords(pages: PageRecord[]): PageRecord[] {
  const out: PageRecord[] = [];
  const walk = (list: PageRecord[]) => {
    for (const p of list) {
      out.push(p);
      walk(p.children);
    }
  };
  walk(pages);
  return out;
}
