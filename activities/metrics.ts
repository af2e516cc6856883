/**
 * Every activity built by `createActivities` records its attempts in the worker's metrics (deps.metrics): its
 * outcome and duration, and the bytes it receives through the guarded fetch's clients, counted to its pipeline.
 * The activities that end an operation (or do its main work) also count the operation, by pipeline and outcome,
 * with what their input or result tells (`OPERATION_ENDS`). A counter may count a retried end twice: the
 * request logs and the API stay the record of each operation.
 */
import { CancelledFailure } from '@temporalio/activity';
import type { FolioMetrics } from '../src/metrics/index.js';

type ActivityFunction = (...args: never[]) => Promise<unknown>;
type Ended = { ok: true; result: unknown } | { ok: false; error: unknown };
type Record_ = (metrics: FolioMetrics, input: unknown[], ended: Ended, seconds: number) => void;

/** The pipeline an activity belongs to, from its name. */
export function pipelineOf(activity: string): string {
  const prefixes: Array<[string, string]> = [
    ['gitImport', 'git-import'],
    ['gitExport', 'git-export'],
    ['git', 'git'],
    ['openapi', 'openapi'],
    ['translation', 'translation'],
    ['import', 'content-import'],
    ['publish', 'publish'],
    ['searchIndex', 'search-index'],
    ['template', 'template'],
    ['purge', 'purge'],
  ];
  return prefixes.find(([prefix]) => activity.startsWith(prefix))?.[1] ?? 'space';
}

const field = (value: unknown, key: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The git operation's work: its outcome (`applied` counts as success), pages loaded; its failure is counted by `gitFinishOperation`. */
const gitOperation =
  (pipeline: string): Record_ =>
  (metrics, _input, ended, seconds) => {
    if (!ended.ok) return;
    const outcome = field(ended.result, 'outcome');
    metrics.operationEnded(pipeline, outcome === 'applied' ? 'success' : String(outcome), seconds);
    const progress = field(ended.result, 'progress');
    metrics.pagesProcessed(pipeline, num(field(progress, 'pagesLoaded')) || num(field(ended.result, 'pagesChanged')));
  };

const succeeded =
  (pipeline: string, pages?: (result: unknown) => number): Record_ =>
  (metrics, _input, ended, seconds) => {
    if (!ended.ok) return;
    metrics.operationEnded(pipeline, 'success', seconds);
    if (pages) metrics.pagesProcessed(pipeline, pages(ended.result));
  };

const failed =
  (pipeline: string): Record_ =>
  (metrics, _input, ended) => {
    if (ended.ok) metrics.operationEnded(pipeline, 'failure');
  };

/** The activities that end an operation, and what they count. */
const OPERATION_ENDS: Record<string, Record_> = {
  gitImportOperation: gitOperation('git-import'),
  gitExportOperation: gitOperation('git-export'),
  // Called after the last attempt of a failed operation, with its end (`failure` or `timeout`).
  gitFinishOperation: (metrics, input, ended) => {
    const [request, end] = input;
    if (ended.ok && field(end, 'state') !== 'success') metrics.operationEnded(`git-${String(field(request, 'direction'))}`, String(field(end, 'state')));
  },
  openapiProcess: succeeded('openapi'),
  openapiRecordFailure: failed('openapi'),
  translationFinishRun: succeeded('translation'),
  translationTranslatePages: (metrics, input, ended) => {
    const pages = field(input[0], 'pageIds');
    if (ended.ok && Array.isArray(pages)) metrics.pagesProcessed('translation', pages.length);
  },
  translationFailRun: failed('translation'),
  importCrawl: (metrics, _input, ended) => {
    if (!ended.ok) return;
    metrics.pagesProcessed('content-import', num(field(ended.result, 'pages')));
    metrics.bytesProcessed('content-import', num(field(ended.result, 'bytes')));
  },
  importFinish: (metrics, input, ended) => {
    if (ended.ok) metrics.operationEnded('content-import', String(field(input[0], 'status')));
  },
  publishSiteActivity: succeeded('publish', (r) => num(field(r, 'rendered'))),
  searchIndexSpace: succeeded('search-index', (r) => num(field(r, 'pages'))),
  templatePublish: succeeded('template'),
};

/** Each activity of `activities`, its attempts and (for the ones ending an operation) its operation recorded in `metrics`. */
export function withActivityMetrics<T extends Record<string, ActivityFunction>>(metrics: FolioMetrics | undefined, activities: T): T {
  if (!metrics) return activities;
  const wrapped: Record<string, ActivityFunction> = {};
  for (const [name, activity] of Object.entries(activities)) {
    const pipeline = pipelineOf(name);
    const ends = OPERATION_ENDS[name];
    const call = async (...args: never[]) => {
      const started = performance.now();
      const done = (ended: Ended) => {
        const seconds = (performance.now() - started) / 1000;
        const outcome = ended.ok ? 'success' : ended.error instanceof CancelledFailure ? 'cancelled' : 'failure';
        metrics.activityEnded(name, outcome, seconds);
        ends?.(metrics, args, ended, seconds);
      };
      try {
        const result = await metrics.within(pipeline, () => activity(...args));
        done({ ok: true, result });
        return result;
      } catch (error) {
        done({ ok: false, error });
        throw error;
      }
    };
    Object.defineProperty(call, 'name', { value: name });
    wrapped[name] = call;
  }
  return wrapped as T;
}
