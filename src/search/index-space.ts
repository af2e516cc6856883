import type { Logger } from '../log.js';
import type { PageRecord, SearchPageInput, Store } from '../store/index.js';
import { sha256Hex } from '../store/index.js';
import { detectedConfigName, LANGUAGE_SAMPLE_CHARS, searchConfigName } from './languages.js';
import type { SearchablePage } from './sections.js';
import { storedPage, type SearchPageDraft } from './stored-page.js';

/** Bumped when the extraction changes, so every page is rebuilt once. */
const EXTRACTION_VERSION = 2;
/** Pages parsed at once (the parse pool spreads them over its threads). */
const BATCH = 16;

export interface IndexSpaceInput {
  spaceId: string;
  organizationId: string;
}

export interface IndexSpaceResult {
  /** See the search index workflow's result (src/temporal/contract/search.ts). */
  outcome: 'indexed' | 'current' | 'superseded' | 'skipped';
  revisionId?: string;
  pages: number;
  reindexed: number;
  removed: number;
  titleOnly: number;
}

export interface IndexSpaceDeps {
  store: Pick<Store, 'spaces' | 'revisions' | 'search'>;
  logger: Logger;
  /**
   * A page body's searchable sections, parsed off the event loop; `{ skipped }` when the page is not parsed within its
   * own budget (`page`) or its operation's (`operation`: counted in the result, not logged page by page).
   */
  extract(markdown: string): Promise<SearchablePage | { skipped: 'page' | 'operation' }>;
  /**
   * The language (ISO 639-3, `und` when undetermined) of a sample of the space's text, off the event loop: a space
   * without a language is stemmed in the detected one. Absent: such a space is indexed without stemming (`simple`).
   */
  detectLanguage?(sample: string): Promise<string>;
  /** Liveness while it runs (the activity's heartbeat). */
  progress(details: { phase: 'parsing' | 'writing'; pagesDone?: number; pagesToIndex: number }): void;
}

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

/** One page's rows: its sections parsed from its body (title only when it cannot be parsed, or is kept as raw bytes). */
async function draftPage(deps: IndexSpaceDeps, revisionId: string, p: Placed & { key: string }): Promise<{ draft: SearchPageDraft; titleOnly: boolean }> {
  let sections: SearchPageDraft['sections'] = [];
  let description = dataDescription(p.page);
  let titleOnly = Boolean(p.page.data?.raw);
  const bytes = p.page.data?.raw || !p.page.bodyHash ? null : await deps.store.revisions.pageBody(revisionId, p.page.id);
  if (bytes) {
    const found = await deps.extract(new TextDecoder().decode(bytes));
    if (!('skipped' in found)) {
      sections = found.sections.map((s) => ({ anchor: s.anchor, title: s.title, body: s.body }));
      description ||= found.description;
    } else {
      titleOnly = true;
      if (found.skipped === 'page') deps.logger.warn({ pageId: p.page.id }, 'page too complex to index its text; indexed by its title');
    }
  }
  // The page's own section (title, description, text before the first heading) always comes first.
  if (sections[0]?.anchor !== '') sections.unshift({ anchor: '', title: '', body: '' });
  const draft = { pageId: p.page.id, contentKey: p.key, ord: p.ord, title: p.page.title, description, path: p.path, ancestors: p.ancestors, sections };
  return { draft, titleOnly };
}

/** The titles of the pages, then their bodies in tree order, up to the sample's length. */
async function languageSample(deps: IndexSpaceDeps, revisionId: string, pages: Placed[]): Promise<string> {
  let sample = pages.map((p) => p.page.title).join('\n');
  for (const p of pages) {
    if (sample.length >= LANGUAGE_SAMPLE_CHARS) break;
    if (p.page.data?.raw || !p.page.bodyHash) continue;
    const bytes = await deps.store.revisions.pageBody(revisionId, p.page.id);
    if (bytes) sample += '\n\n' + new TextDecoder().decode(bytes.subarray(0, LANGUAGE_SAMPLE_CHARS * 4));
  }
  return sample.slice(0, LANGUAGE_SAMPLE_CHARS);
}

/** The text search configuration of the space: its language's, else the detected language's, else `simple`. */
async function spaceConfig(deps: IndexSpaceDeps, language: string | null, revisionId: string, pages: Placed[]): Promise<string> {
  if (language || !deps.detectLanguage) return deps.store.search.configFor(searchConfigName(language));
  return deps.store.search.configFor(detectedConfigName(await deps.detectLanguage(await languageSample(deps, revisionId, pages))));
}

/**
 * Brings the space's search index to its current primary revision, in the space's language (detected when it has
 * none, see `detectLanguage`): pages whose body, title, place and
 * configuration are unchanged keep their rows; the others are parsed into sections. A page the parser cannot
 * handle within its budget, or kept as raw bytes, is indexed by its title (and counted). Idempotent: the index
 * records the revision it holds; a revision that stopped being primary is not written.
 */
export async function indexSpace(deps: IndexSpaceDeps, input: IndexSpaceInput): Promise<IndexSpaceResult> {
  const { store, logger } = deps;
  const none = { pages: 0, reindexed: 0, removed: 0, titleOnly: 0 };
  const space = await store.spaces.get(input.spaceId);
  if (!space || space.organizationId !== input.organizationId || !space.revisionId) return { outcome: 'skipped', ...none };
  const revisionId = space.revisionId;
  const pages = placed(await store.revisions.pages(revisionId));
  const config = await spaceConfig(deps, space.language, revisionId, pages);
  const state = await store.search.state(space.id);
  if (state && state.revisionId === revisionId && state.config === config) return { outcome: 'current', revisionId, ...none, pages: state.keys.size };

  const keep: Array<{ pageId: string; ord: number }> = [];
  const todo: Array<Placed & { key: string }> = [];
  for (const p of pages) {
    const key = sha256Hex(
      JSON.stringify([EXTRACTION_VERSION, config, p.page.bodyHash, p.page.title, dataDescription(p.page), p.path, p.ancestors, p.page.data?.raw ?? null]),
    );
    if (state?.keys.get(p.page.id) === key) keep.push({ pageId: p.page.id, ord: p.ord });
    else todo.push({ ...p, key });
  }
  const upsert: SearchPageInput[] = [];
  let titleOnly = 0;
  for (let i = 0; i < todo.length; i += BATCH) {
    deps.progress({ phase: 'parsing', pagesDone: i, pagesToIndex: todo.length });
    for (const page of await Promise.all(todo.slice(i, i + BATCH).map((p) => draftPage(deps, revisionId, p)))) {
      if (page.titleOnly) titleOnly++;
      upsert.push(storedPage(page.draft));
    }
  }
  deps.progress({ phase: 'writing', pagesToIndex: todo.length });
  const applied = await store.search.apply({ spaceId: space.id, organizationId: space.organizationId, revisionId, config, keep, upsert });
  const result = { revisionId, pages: pages.length, reindexed: upsert.length, removed: applied.removed, titleOnly };
  logger.info(result, applied.applied ? 'search index updated' : 'search index not written: the primary revision changed meanwhile');
  return { outcome: applied.applied ? 'indexed' : 'superseded', ...result };
}
