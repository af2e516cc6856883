/**
 * The run's first phase: a website run crawls its site (discovery and fetching, checkpointed URL by URL in the store,
 * so a retry goes on where the last attempt stopped); a file run's "fetch" only checks that its uploads are in the
 * store, each with its bytes.
 */
import { uploadedFiles } from '../../fileimport/uploads.js';
import { crawlSite, type CrawlWarning } from '../crawl.js';
import { webImportRunSettings } from '../run-settings.js';
import type { ImportRunControl } from './control.js';
import { loadRun, MAX_WARNINGS, onPool, type ImportRunContext, type ImportRunDeps, type ImportRunRef } from './context.js';
import { runProgress } from './progress.js';

export interface CrawlOutcome {
  pages: number;
  assets: number;
  bytes: number;
  warnings: number;
}

export async function runImportCrawl(deps: ImportRunDeps, ref: ImportRunRef, control: ImportRunControl): Promise<CrawlOutcome> {
  const { store } = deps;
  const run = await loadRun(store, ref);
  if (run.source.type === 'file') {
    const files = await uploadedFiles(store, run.organizationId, run.source.files);
    await store.imports.update(run.id, { totalResources: files.length, importedResources: 0 });
    return { pages: files.length, assets: 0, bytes: files.reduce((n, f) => n + f.size, 0), warnings: 0 };
  }
  const progress = runProgress(store, run.id, control);
  try {
    return await crawl({ deps, run, progress }, run.source.url);
  } finally {
    await progress.stop();
  }
}

async function crawl({ deps, run, progress }: ImportRunContext, startUrl: string): Promise<CrawlOutcome> {
  const { store, config } = deps;
  const signal = progress.control.signal;
  const pool = deps.parsePool();
  const result = await crawlSite({
    runId: run.id,
    startUrl,
    store,
    ...webImportRunSettings(config, run, signal),
    analyze: (html, url) => pool.runWith(onPool(progress), 'html.analyze', html, url),
    parseSitemap: (bytes) => pool.runWith(onPool(progress), 'sitemap.parse', bytes),
    onProgress: (p) =>
      progress.report({
        phase: 'fetching',
        importedResources: p.done,
        totalResources: p.total,
        ...(p.current ? { item: p.current } : {}),
        requests: p.requests,
      }),
    ...(signal ? { signal } : {}),
  });
  const kept = [...(run.warnings as CrawlWarning[]), ...result.warnings].slice(0, MAX_WARNINGS);
  await store.imports.update(run.id, { warnings: kept, totalResources: result.pages + result.assets });
  return { pages: result.pages, assets: result.assets, bytes: result.bytes, warnings: result.warnings.length };
}
