/**
 * Sending the segments the translation memory lacks to the engine, with the memory as the checkpoint: each part of
 * the engine's answer (one request to it) is remembered — written to the memory — before the next part is asked for.
 * A run resumed after its worker was killed (SIGKILL, no chance to clean up) finds in the memory everything the
 * engine answered and sends none of it again; at most the one request in flight at the kill is sent twice, and only
 * if its answer never arrived.
 */
import type { EngineRequest, TranslationEngine } from './engines/engine.js';
import type { Segment } from './segments.js';

export interface SendMissingOptions {
  engine: TranslationEngine;
  /** Distinct segments, in order. */
  segments: readonly Segment[];
  request: Omit<EngineRequest, 'onAnswer'>;
  /** Segments given to one `engine.translate` call (the engine splits them into its own requests). */
  perCall: number;
  /** Writes answered segments to the memory (and the run's figures); awaited before the engine is asked anything else. */
  remember(segments: Segment[], targets: string[]): Promise<void>;
  /** Attempts of one `remember` before the activity fails (default 5): the answer is paid for, keep it if at all possible. */
  rememberAttempts?: number;
  /** First pause between two attempts (default 500 ms, doubled each time). */
  rememberBackoffMs?: number;
}

export async function sendMissing(o: SendMissingOptions): Promise<void> {
  for (let i = 0; i < o.segments.length; i += o.perCall) {
    const chunk = o.segments.slice(i, i + o.perCall);
    let remembered = 0;
    const keep = async (offset: number, targets: string[]) => {
      // Parts come in order; a part given twice (an engine that also returns what it reported) is kept once.
      const from = Math.max(offset, remembered);
      const to = offset + targets.length;
      if (to <= from) return;
      await rememberWithRetries(o, chunk.slice(from, to), targets.slice(from - offset));
      remembered = to;
    };
    const targets = await o.engine.translate(
      chunk.map((s) => s.markup),
      { ...o.request, onAnswer: keep },
    );
    // An engine that answers all at once (or does not report parts): what it answered now.
    if (remembered < chunk.length) await keep(0, targets);
  }
}

async function rememberWithRetries(o: SendMissingOptions, segments: Segment[], targets: string[]): Promise<void> {
  const attempts = Math.max(1, o.rememberAttempts ?? 5);
  let pause = o.rememberBackoffMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      await o.remember(segments, targets);
      return;
    } catch (err) {
      if (attempt >= attempts || o.request.signal?.aborted) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause *= 2;
    }
  }
}
