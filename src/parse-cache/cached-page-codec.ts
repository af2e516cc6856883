/**
 * A page codec that remembers what `decode` made of a text, in the store's parse cache: keyed by the text's SHA-256
 * (and the length limit it was decoded with) under the converter's version, shared by the spaces of one
 * organization. Lookups of pages decoded at the same time go to the store as one query; summaries decoded by the
 * inner codec are written back in batches (`flush()` waits for them). Only `decode` is cached: it is a pure
 * function of the text and the converter. A page over a parse budget is not cached (the next import tries again),
 * nor is a summary that JSON would not give back unchanged (`jsonSafe`). A store that fails to answer costs a
 * parse, never an import: the failure is logged and the page decoded.
 */
import { createHash } from 'node:crypto';
import type { DecodedPageSummary, PageCodecRunner } from '../format/index.js';
import type { Logger } from '../log.js';
import type { ParseCacheStore } from '../store/index.js';
import { converterVersion } from './converter-version.js';
import { jsonSafe } from './json-safe.js';

export interface ParseCacheStats {
  /** Pages whose summary came from the store. */
  hits: number;
  /** Pages decoded by the inner codec (a text seen twice in one import is decoded once). */
  decoded: number;
  /** Summaries written to the store. */
  stored: number;
}

export interface CachedPageCodec extends PageCodecRunner {
  /** Waits until every summary decoded so far is written (write failures are logged, not thrown). */
  flush(): Promise<void>;
  readonly stats: ParseCacheStats;
}

export interface CachedPageCodecOptions {
  store: ParseCacheStore;
  organizationId: string;
  /** Default: this process's `converterVersion()`. */
  version?: string;
  logger?: Pick<Logger, 'warn'>;
  /** Pages in flight at once (lookups are batched across them); default 32, at least the inner codec's. */
  concurrency?: number;
  /** Summaries per insert; default 250. */
  writeBatch?: number;
}

interface Waiter {
  resolve(value: DecodedPageSummary): void;
  reject(err: unknown): void;
}

interface PendingLookup {
  text: string;
  maxLength: number | undefined;
  waiters: Waiter[];
}

export function contentKey(text: string, maxLength: number | undefined): string {
  return `${createHash('sha256').update(text).digest('hex')}:${maxLength ?? ''}`;
}

/**
 * Writes decoded pages to the cache in batches of `writeBatch`, in the background: a failed write is a warning (the
 * pages are parsed again next time). `flush` writes what is left and waits for every write.
 */
function cacheWriter(options: CachedPageCodecOptions, version: string, writeBatch: number, stats: ParseCacheStats) {
  let toWrite: Array<{ key: string; summary: string }> = [];
  const writes = new Set<Promise<void>>();

  const write = (entries: Array<{ key: string; summary: string }>) => {
    const p = options.store
      .put(options.organizationId, version, entries)
      .then(
        () => {
          stats.stored += entries.length;
        },
        (err: unknown) =>
          options.logger?.warn({ err, entries: entries.length }, 'parse cache: could not store decoded pages (they will be parsed again next time)'),
      )
      .finally(() => writes.delete(p));
    writes.add(p);
  };

  const remember = (key: string, summary: DecodedPageSummary): void => {
    if (!jsonSafe(summary)) return;
    toWrite.push({ key, summary: JSON.stringify(summary) });
    if (toWrite.length >= writeBatch) {
      write(toWrite);
      toWrite = [];
    }
  };

  const flush = async (): Promise<void> => {
    if (toWrite.length) {
      write(toWrite);
      toWrite = [];
    }
    while (writes.size) await Promise.all([...writes]);
  };
  return { remember, flush };
}

export function cachedPageCodec(inner: PageCodecRunner, options: CachedPageCodecOptions): CachedPageCodec {
  const version = options.version ?? converterVersion();
  const writeBatch = options.writeBatch ?? 250;
  const stats: ParseCacheStats = { hits: 0, decoded: 0, stored: 0 };
  let pending = new Map<string, PendingLookup>();
  let scheduled = false;
  const { remember, flush } = cacheWriter(options, version, writeBatch, stats);

  const decodeMiss = (key: string, lookup: PendingLookup) => {
    stats.decoded++;
    inner.decode(lookup.text, lookup.maxLength).then(
      (summary) => {
        remember(key, summary);
        const [first, ...rest] = lookup.waiters;
        first?.resolve(summary);
        for (const w of rest) w.resolve(structuredClone(summary));
      },
      (err: unknown) => {
        for (const w of lookup.waiters) w.reject(err);
      },
    );
  };

  const runLookups = async () => {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    let found = new Map<string, string>();
    try {
      found = await options.store.get(options.organizationId, version, [...batch.keys()]);
    } catch (err) {
      options.logger?.warn({ err, pages: batch.size }, 'parse cache: lookup failed; the pages are parsed');
    }
    for (const [key, lookup] of batch) {
      const summary = found.get(key);
      if (summary === undefined) {
        decodeMiss(key, lookup);
        continue;
      }
      let ok = true;
      for (const w of lookup.waiters) {
        try {
          w.resolve(JSON.parse(summary) as DecodedPageSummary);
          stats.hits++;
        } catch {
          ok = false;
        }
      }
      if (!ok) decodeMiss(key, lookup);
    }
  };

  return {
    concurrency: Math.max(inner.concurrency, options.concurrency ?? 32),
    decode(text, maxLength) {
      const key = contentKey(text, maxLength);
      return new Promise<DecodedPageSummary>((resolve, reject) => {
        const existing = pending.get(key);
        if (existing) existing.waiters.push({ resolve, reject });
        else pending.set(key, { text, maxLength, waiters: [{ resolve, reject }] });
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void runLookups());
        }
      });
    },
    encode: (text, wanted, rewrites, source) => inner.encode(text, wanted, rewrites, source),
    serializeNew: (text) => inner.serializeNew(text),
    parseSummary: (text, path) => inner.parseSummary(text, path),
    reserialize: (text) => inner.reserialize(text),
    parseConfig: (text, path) => inner.parseConfig(text, path),
    flush,
    stats,
  };
}
