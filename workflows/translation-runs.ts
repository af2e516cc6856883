/**
 * `translation/<translationId>/runs`: one translation's runs, one at a time. Started by signal-with-start from
 * `POST …/translations/{id}/run`; a run requested while one runs is queued (several queued requests become one run,
 * the newest: the source is read when the run starts), never run twice at once. Each run:
 * `translationBeginRun` → `translationTranslatePages` per batch of pages (on the translation task queue; only
 * segments missing from the translation memory go to the engine) → `translationFinishRun` (the result revision),
 * or `translationFailRun` with the failure's code and reason (then, when no request is queued, the execution fails with
 * a non-retryable ApplicationFailure typed with that code, so a failed run is failed in Temporal too). Progress (pages and segments done of their totals) is
 * answered by the `translationState` and `translationProgress` queries and shown in the run's current details.
 */
import {
  ApplicationFailure,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  allHandlersFinished,
  defineSignal,
  defineQuery,
} from '@temporalio/workflow';
import type { RetryPolicy } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import {
  TRANSLATION_NON_RETRYABLE,
  translationQueries,
  translationSignals,
  type TranslationBatchCounts,
  type TranslationProgress,
  type TranslationQueueInput,
  type TranslationRunRequest,
  type TranslationRunView,
} from '../src/temporal/contract/index.js';
import { classifyFailure } from './failure.js';
import { trackProgress } from './progress.js';

const requestSignal = defineSignal<[TranslationRunRequest]>(translationSignals.request);
const progressSignal = defineSignal<[TranslationProgress]>(translationSignals.progress);
const stateQuery = defineQuery<TranslationRunView>(translationQueries.state);
const progressQuery = defineQuery<TranslationProgress | null>(translationQueries.progress);

const retry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 8,
  nonRetryableErrorTypes: [...TRANSLATION_NON_RETRYABLE],
};

/** Begin and finish (a large space is reassembled page by page in the parse pool; they heartbeat). */
const main = proxyActivities<Activities>({ startToCloseTimeout: '1 hour', heartbeatTimeout: '1 minute', retry });
const record = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 10 } });

/** Runs in one execution before it continues as new (bounded history). */
const RUNS_PER_EXECUTION = 50;

function errorOf(err: unknown): { code: string; message: string } {
  const f = classifyFailure(err);
  if (f.kind === 'application') return { code: f.type ?? 'ERROR', message: f.message };
  if (f.kind === 'timeout') return { code: 'TIMEOUT', message: `the run timed out (${f.timeoutType})` };
  if (f.kind === 'cancelled') return { code: 'CANCELLED', message: 'the run was cancelled' };
  return { code: 'ERROR', message: f.causeMessage || f.message };
}

export async function translationRunsWorkflow(input: TranslationQueueInput): Promise<void> {
  const pending: number[] = [...(input.pending ?? [])];
  const view: TranslationRunView = {
    running: null,
    queued: pending,
    lastCompleted: null,
    pagesTotal: 0,
    pagesDone: 0,
    segmentsTotal: 0,
    segmentsDone: 0,
    segmentsSent: 0,
  };
  setHandler(requestSignal, ({ run }) => {
    if (Number.isSafeInteger(run) && run > 0 && run !== view.running && !pending.includes(run)) pending.push(run);
  });
  setHandler(stateQuery, () => view);
  trackProgress(progressSignal, progressQuery);
  const engineQueue = proxyActivities<Activities>({
    taskQueue: input.engineTaskQueue,
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: input.engineHeartbeatTimeoutMs ?? '2 minutes',
    retry,
  });
  const perBatch = Math.max(1, input.pagesPerBatch ?? 25);

  let runs = 0;
  while (runs < RUNS_PER_EXECUTION) {
    if (pending.length === 0) {
      await condition(() => pending.length > 0 || allHandlersFinished(), '1 minute');
      if (pending.length === 0) break;
    }
    // Queued requests become one run: the newest one (the source is read when it starts).
    const run = Math.max(...pending);
    pending.length = 0;
    view.running = run;
    runs++;
    const ref = { translationId: input.translationId, organizationId: input.organizationId, run };
    try {
      await translateRun(engineQueue, perBatch, view, ref);
    } catch (err) {
      const { code, message } = errorOf(err);
      log.warn('translation run failed', { translationId: input.translationId, run, code });
      const failed = await record.translationFailRun({ translationId: input.translationId, run, code, message });
      setCurrentDetails(`**run ${run} failed** · ${code}: ${message}`);
      view.running = null;
      // The run's failure is recorded (the API shows `run.status: failed`): with nothing queued after it, the
      // execution fails too, typed and not retried, the cause in its message. A request sent meanwhile runs first.
      await condition(allHandlersFinished);
      // A translation deleted while it ran has nothing left to fail (`recorded: false`; older histories: undefined).
      if (pending.length === 0 && failed?.recorded !== false)
        throw ApplicationFailure.create({ type: code, message: `run ${run} failed: ${code}: ${message}`, nonRetryable: true });
    }
    view.running = null;
  }
  if (pending.length > 0 || runs >= RUNS_PER_EXECUTION) {
    await condition(allHandlersFinished);
    await continueAsNew<typeof translationRunsWorkflow>({ ...input, pending: [...pending] });
  }
}

/**
 * One run: begin (the source's pages), translate them batch by batch on the engine's queue, finish (the result
 * revision); `view` and the current details follow its progress.
 */
async function translateRun(
  engineQueue: ReturnType<typeof proxyActivities<Activities>>,
  perBatch: number,
  view: TranslationRunView,
  ref: { translationId: string; organizationId: string; run: number },
): Promise<void> {
  const { run } = ref;
  const begun = await main.translationBeginRun(ref);
  Object.assign(view, { pagesTotal: begun.pageIds.length, pagesDone: 0, segmentsTotal: 0, segmentsDone: 0, segmentsSent: 0 });
  setCurrentDetails(`**run ${run}** · translating ${begun.pageIds.length} pages with ${begun.engine}`);
  const before: TranslationBatchCounts = { pages: 0, segments: 0, sent: 0, fromMemory: 0, words: 0, pagesTranslated: 0 };
  // A run that keeps the previous result (nothing new) has no batch to translate.
  for (let i = 0; i < (begun.reuse ? 0 : begun.pageIds.length); i += perBatch) {
    const added = await engineQueue.translationTranslatePages({
      ...ref,
      sourceRevisionId: begun.sourceRevisionId,
      pageIds: begun.pageIds.slice(i, i + perBatch),
      engine: begun.engine,
      before,
      pagesTotal: begun.pageIds.length,
    });
    for (const k of Object.keys(before) as Array<keyof TranslationBatchCounts>) before[k] += added[k];
    Object.assign(view, { pagesDone: before.pages, segmentsTotal: before.segments, segmentsDone: before.segments, segmentsSent: before.sent });
    setCurrentDetails(
      `**run ${run}** · pages ${before.pages}/${begun.pageIds.length} · segments ${before.segments} (${before.sent} sent to ${begun.engine}, ${before.fromMemory} from memory)`,
    );
  }
  setCurrentDetails(`**run ${run}** · assembling ${begun.pageIds.length} pages`);
  const done = await main.translationFinishRun({ ...ref, sourceRevisionId: begun.sourceRevisionId });
  view.lastCompleted = run;
  setCurrentDetails(
    begun.reuse
      ? `**run ${run} completed** · nothing new: revision ${done.resultRevisionId} kept`
      : `**run ${run} completed** · ${before.pages} pages · ${before.sent} segments sent, ${before.fromMemory} from memory · revision ${done.resultRevisionId}`,
  );
}
