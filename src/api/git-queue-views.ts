/**
 * The git queue views `git/info` shows, kept for a moment. A view is a query of the space's queue workflow: a round
 * trip through Temporal to the worker (about 10 ms, three quarters of a `git/info` call) that clients polling an
 * operation would otherwise make every time. A view is kept `ttlMs` (default 500 ms) per organization and space, and
 * forgotten when this API queues a request for the space; `operation` and `requests` are read from the store on every
 * call. Concurrent calls for the same space share one query.
 */
import type { GitQueueView } from '../temporal/contract/index.js';

export interface GitQueueViewsOptions {
  ttlMs?: number;
  /** Spaces kept at most (the oldest are forgotten first). Default 1,000. */
  maxSpaces?: number;
  now?: () => number;
}

interface Entry {
  at: number;
  view: Promise<GitQueueView | null>;
}

export class GitQueueViews {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxSpaces: number;
  private readonly now: () => number;

  constructor(options: GitQueueViewsOptions = {}) {
    this.ttlMs = options.ttlMs ?? 500;
    this.maxSpaces = options.maxSpaces ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /** The space's queue view: the one asked less than `ttlMs` ago, else `query()` (a failed query is not kept). */
  get(space: { organizationId: string; id: string }, query: () => Promise<GitQueueView | null>): Promise<GitQueueView | null> {
    const key = keyOf(space);
    const now = this.now();
    const kept = this.entries.get(key);
    if (kept && now - kept.at < this.ttlMs) return kept.view;
    const view = query();
    const entry: Entry = { at: now, view };
    this.entries.delete(key);
    this.entries.set(key, entry);
    view.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    while (this.entries.size > this.maxSpaces) this.entries.delete(this.entries.keys().next().value!);
    return view;
  }

  /** A request was queued for the space: the next view is asked anew. */
  forget(space: { organizationId: string; id: string }): void {
    this.entries.delete(keyOf(space));
  }
}

function keyOf(space: { organizationId: string; id: string }): string {
  return `${space.organizationId}\u0000${space.id}`;
}
