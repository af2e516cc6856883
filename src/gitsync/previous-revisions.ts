/**
 * PreviousRevisions: the records of each space's latest revision, without page bodies, kept in the worker's memory
 * for the space's next incremental import (`loadRevisionModel(…, { bodies: false })`: 32 ms at 1,000 pages and
 * 164 ms at 5,000, plus the embedded database's time, on the path of every import).
 *
 * - Revisions are immutable: a revision's records read once are its records for ever, so an entry never goes stale.
 * - The revision an import stores is read into memory shortly after it (`prewarm`, in the background, after the
 *   import has answered): the space's next import finds it.
 * - Scoped by organization and space: an entry is only ever given to the space it was read for, and a revision of
 *   another space is refused (null), as if it did not exist.
 * - Bounded: the latest revision of at most `maxSpaces` spaces and `maxPages` pages in all (least recently used out).
 * - What it hands out is shared: its objects are frozen (a caller that modified them would throw instead of
 *   changing the next import's view; its Maps are read with `get` only).
 */
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import { loadRevisionModel, type LoadedRevision } from '../revision/records.js';

export interface RevisionScope {
  organizationId: string;
  spaceId: string;
}

export interface PreviousRevisionsOptions {
  maxSpaces?: number;
  maxPages?: number;
  /** How long after `prewarm` the revision is read (the operation's last writes and its answer go first). */
  prewarmDelayMs?: number;
  logger?: Logger;
}

interface Entry {
  revisionId: string;
  pages: number;
  loaded: Promise<LoadedRevision | null>;
}

function deepFreeze<T>(value: T, seen = new Set<object>()): T {
  if (value === null || typeof value !== 'object' || seen.has(value) || value instanceof Map || value instanceof Set) return value;
  seen.add(value);
  for (const v of Object.values(value)) deepFreeze(v, seen);
  return Object.freeze(value);
}

function freezeLoaded(loaded: LoadedRevision): LoadedRevision {
  deepFreeze(loaded.model);
  for (const record of loaded.records.pages.values()) deepFreeze(record);
  for (const record of loaded.records.files.values()) deepFreeze(record);
  return loaded;
}

export class PreviousRevisions {
  private readonly entries = new Map<string, Entry>();
  private readonly maxSpaces: number;
  private readonly maxPages: number;
  private readonly prewarmDelayMs: number;
  /** Reads answered from memory and from the store (for tests and logs). */
  readonly stats = { hits: 0, loads: 0 };

  constructor(
    private readonly store: Store,
    private readonly options: PreviousRevisionsOptions = {},
  ) {
    this.maxSpaces = options.maxSpaces ?? 8;
    this.maxPages = options.maxPages ?? 20_000;
    this.prewarmDelayMs = options.prewarmDelayMs ?? 500;
  }

  private static key(scope: RevisionScope): string {
    return `${scope.organizationId}\n${scope.spaceId}`;
  }

  /** The revision's records without page bodies, or null when the space has no such revision. */
  async load(scope: RevisionScope, revisionId: string): Promise<LoadedRevision | null> {
    const key = PreviousRevisions.key(scope);
    const kept = this.entries.get(key);
    if (kept && kept.revisionId === revisionId) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, kept);
      const loaded = await kept.loaded.catch(() => undefined);
      if (loaded !== undefined) {
        this.stats.hits++;
        return loaded;
      }
    }
    return this.read(scope, revisionId);
  }

  /** Reads the revision into memory after a short delay, in the background (a failure only means a later read). */
  prewarm(scope: RevisionScope, revisionId: string): void {
    const timer = setTimeout(() => {
      const kept = this.entries.get(PreviousRevisions.key(scope));
      if (kept?.revisionId === revisionId) return;
      this.read(scope, revisionId).catch((err: unknown) => this.options.logger?.debug({ err, revisionId }, 'previous revision not read ahead'));
    }, this.prewarmDelayMs);
    timer.unref();
  }

  private async read(scope: RevisionScope, revisionId: string): Promise<LoadedRevision | null> {
    const key = PreviousRevisions.key(scope);
    this.stats.loads++;
    const loaded = loadRevisionModel(this.store, revisionId, { bodies: false }).then((l) => (l && l.spaceId === scope.spaceId ? freezeLoaded(l) : null));
    const entry: Entry = { revisionId, pages: 0, loaded };
    this.entries.delete(key);
    this.entries.set(key, entry);
    try {
      const result = await loaded;
      if (result) entry.pages = result.records.pages.size;
      // Not found, or larger than the whole budget alone: answered, not kept.
      if ((!result || entry.pages > this.maxPages) && this.entries.get(key) === entry) this.entries.delete(key);
      this.trim();
      return result;
    } catch (err) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw err;
    }
  }

  private trim(): void {
    let pages = [...this.entries.values()].reduce((n, e) => n + e.pages, 0);
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxSpaces && pages <= this.maxPages) break;
      this.entries.delete(key);
      pages -= entry.pages;
    }
  }
}
