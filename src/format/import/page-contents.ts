import type { FormatWarning } from '../errors.js';
import { inlinePageCodec } from '../page-codec-runner.js';
import type { ImportContext } from './context.js';
import { loadPage } from './load-page.js';

/**
 * Phase "page contents": the pages are read and parsed `codec.concurrency` at a time (a pool parses them on every
 * core); their warnings are merged in TOC order whatever order the pages finish in. Parsing in this thread is
 * synchronous: the event loop gets a turn every ~50 ms so timers, heartbeats and RPC keep running.
 */
export async function loadPageContents(
  ctx: Pick<ImportContext, 'options' | 'loads' | 'warnings' | 'prev' | 'limits' | 'rawUrls' | 'counts' | 'reusedFrom'>,
): Promise<void> {
  const { loads } = ctx;
  const codec = ctx.options.codec ?? inlinePageCodec;
  const pageWarnings: FormatWarning[][] = loads.map(() => []);
  let lastYield = Date.now();
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    while (next < loads.length) {
      const i = next++;
      if (Date.now() - lastYield > 50) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        lastYield = Date.now();
      }
      await loadPage(ctx, loads[i]!, pageWarnings[i]!, codec);
      ctx.options.onPageLoaded?.(++done, loads.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(codec.concurrency, loads.length)) }, lane));
  for (const list of pageWarnings) ctx.warnings.push(...list);
}
