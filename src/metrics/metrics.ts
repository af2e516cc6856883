/**
 * Folio's Prometheus metrics: the one module that knows prom-client. Everything else records through the typed
 * recorders of `FolioMetrics` (activities get one in their deps, the API in its deps), and the registry's text is
 * served by the API (`GET /metrics`) and by each worker's metrics port (./server.ts). Labels are bounded sets
 * (pipelines, outcomes, activity types, route templates, error codes): never an id, a URL or a tenant.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AsyncLocalStorage } from 'node:async_hooks';
import { FETCH_BYTES_CHANNEL, FETCH_REFUSED_CHANNEL, type FetchRefusal } from '../net/observe.js';

/** What a parse pool holds now (`ParsePool.stats`). */
export interface PoolStats {
  queued: number;
  busy: number;
  threads: number;
  replaced: number;
}

/** Seconds: from a fast page parse to a long import. */
const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

export class FolioMetrics {
  readonly registry = new Registry();
  private readonly operations: Counter<'pipeline' | 'outcome'>;
  private readonly operationSeconds: Histogram<'pipeline' | 'outcome'>;
  private readonly pages: Counter<'pipeline'>;
  private readonly bytes: Counter<'pipeline'>;
  private readonly activities: Counter<'activity' | 'outcome'>;
  private readonly activitySeconds: Histogram<'activity'>;
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpSeconds: Histogram<'method' | 'route'>;
  private readonly refusals: Counter<'code'>;
  private readonly pools = new Map<string, () => PoolStats>();
  /** The pipeline of the activity running (`within`): bytes received are counted to it. */
  private readonly running = new AsyncLocalStorage<string>();
  private readonly onRefusal = (message: unknown) => this.refusals.inc({ code: (message as FetchRefusal).code });
  private readonly onBytes = (message: unknown) => this.bytesProcessed(this.running.getStore() ?? 'other', message as number);

  /** `role`: the process (`api`, `worker`), a label on every metric. `processMetrics`: Node's own (heap, GC, event loop). */
  constructor(options: { role: string; processMetrics?: boolean }) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ role: options.role });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'folio_' });
    this.operations = new Counter({
      name: 'folio_operations_total',
      help: 'Operations ended, by pipeline and outcome',
      labelNames: ['pipeline', 'outcome'],
      registers,
    });
    this.operationSeconds = new Histogram({
      name: 'folio_operation_duration_seconds',
      help: 'Duration of the work of an operation (its main activity), by pipeline and outcome',
      labelNames: ['pipeline', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.pages = new Counter({
      name: 'folio_pages_processed_total',
      help: 'Pages imported, exported, translated, indexed or rendered',
      labelNames: ['pipeline'],
      registers,
    });
    this.bytes = new Counter({
      name: 'folio_bytes_processed_total',
      help: 'Bytes of content fetched or read by a pipeline',
      labelNames: ['pipeline'],
      registers,
    });
    this.activities = new Counter({
      name: 'folio_activity_attempts_total',
      help: 'Activity attempts, by activity type and outcome',
      labelNames: ['activity', 'outcome'],
      registers,
    });
    this.activitySeconds = new Histogram({
      name: 'folio_activity_duration_seconds',
      help: 'Duration of activity attempts',
      labelNames: ['activity'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.httpRequests = new Counter({
      name: 'folio_http_requests_total',
      help: 'HTTP requests answered, by route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: 'folio_http_request_duration_seconds',
      help: 'HTTP request duration, by route template',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: 'folio_fetch_refusals_total',
      help: 'Requests and bodies refused by the fetch guard, by code',
      labelNames: ['code'],
      registers,
    });
    this.poolGauge('folio_parse_pool_queue_depth', 'Parse tasks waiting for a thread', (s) => s.queued);
    this.poolGauge('folio_parse_pool_busy_threads', 'Parse threads running a task', (s) => s.busy);
    this.poolGauge('folio_parse_pool_threads', 'Parse threads alive', (s) => s.threads);
    // A gauge read from the pool's own count (a monotonic total, so Prometheus' rate() works on it as on a counter).
    this.poolGauge('folio_parse_pool_threads_terminated_total', 'Parse threads terminated and replaced (a budget overrun or a crash)', (s) => s.replaced);
    diagnosticsChannel.subscribe(FETCH_REFUSED_CHANNEL, this.onRefusal);
    diagnosticsChannel.subscribe(FETCH_BYTES_CHANNEL, this.onBytes);
  }

  /** Runs `fn` as work of `pipeline`: the bytes it receives through the guarded fetch's clients count to it. */
  within<T>(pipeline: string, fn: () => T): T {
    return this.running.run(pipeline, fn);
  }

  private poolGauge(name: string, help: string, read: (s: PoolStats) => number): void {
    const pools = this.pools;
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [pool, stats] of pools) this.set({ pool }, read(stats()));
      },
    });
  }

  /** An operation of `pipeline` ended (`success`, `failure`, `timeout`, `noop`, `stale`, …); `seconds`: its work's duration. */
  operationEnded(pipeline: string, outcome: string, seconds?: number): void {
    this.operations.inc({ pipeline, outcome });
    if (seconds !== undefined && Number.isFinite(seconds)) this.operationSeconds.observe({ pipeline, outcome }, seconds);
  }

  pagesProcessed(pipeline: string, count: number): void {
    if (count > 0) this.pages.inc({ pipeline }, count);
  }

  bytesProcessed(pipeline: string, count: number): void {
    if (count > 0) this.bytes.inc({ pipeline }, count);
  }

  activityEnded(activity: string, outcome: 'success' | 'failure' | 'cancelled', seconds: number): void {
    this.activities.inc({ activity, outcome });
    this.activitySeconds.observe({ activity }, seconds);
  }

  /** `route`: the route's template (`/v1/spaces/:spaceId`), or `unmatched`; never the URL (it may carry ids or secrets). */
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpSeconds.observe({ method, route }, seconds);
  }

  /** Reads the pool's stats on each scrape, labelled `pool` (`parse`, `openapi`). */
  watchPool(name: string, stats: () => PoolStats): void {
    this.pools.set(name, stats);
  }

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Stops counting fetch refusals (the process-wide channel) and forgets the pools. */
  close(): void {
    diagnosticsChannel.unsubscribe(FETCH_REFUSED_CHANNEL, this.onRefusal);
    diagnosticsChannel.unsubscribe(FETCH_BYTES_CHANNEL, this.onBytes);
    this.pools.clear();
  }
}
