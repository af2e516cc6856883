import { inlinePageCodec } from '../page-codec-runner.js';
import type { ExportContext } from './context.js';
import { exportedIndex, sourceIndex } from './reference-indexes.js';
import { writePage, type PageWriter } from './write-page.js';

/**
 * Phase "pages": every document page written in TOC order. Serializing is synchronous: the event loop gets a turn
 * every ~50 ms (timers, heartbeats, RPC).
 */
export async function writePages(
  ctx: Pick<ExportContext, 'target' | 'options' | 'revision' | 'warnings' | 'changes' | 'docs' | 'paths' | 'referencedNow' | 'blobs'>,
): Promise<void> {
  const writer: PageWriter = {
    codec: ctx.options.codec ?? inlinePageCodec,
    filePaths: new Map<string, string>(ctx.revision.files.map((f) => [f.id, f.path])),
    index: exportedIndex(ctx),
    sourceIndex: sourceIndex(ctx),
  };
  let lastYield = Date.now();
  for (const page of ctx.docs) {
    if (Date.now() - lastYield > 50) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = Date.now();
    }
    await writePage(ctx, page, writer);
  }
}
