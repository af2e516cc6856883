/**
 * PDF export of a corpus space (GitbookIO/git-sync-normalization by default; `--repo <name>` for another) beside
 * Chromium printing the same pages directly, in the same run. Folio's export is the activity's core
 * (`runPdfExport`: render every page with the site renderer in the parse pool, print one document with a table of
 * contents in two passes, store the blob) on an in-memory store. The baseline renders the same pages with the same
 * renderer and prints each one as its own PDF with one Chromium (same flags), as a user printing the site's pages
 * would. Prints one JSON object (medians of BENCH_RUNS runs, default 3) with the ratio export / baseline.
 *   npx tsx bench/pdf.ts [--repo <name>]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { importTree, readWorkingTree } from '../src/format/index.js';
import { createLogger } from '../src/log.js';
import { ParsePool } from '../src/parse-threads/pool.js';
import { launchPrinter } from '../src/pdf/browser.js';
import { PRINT_STYLESHEET, printDocumentHtml, sectionAnchor } from '../src/pdf/document.js';
import { runPdfExport } from '../src/pdf/export.js';
import { planSections } from '../src/pdf/sections.js';
import { corpusDir } from '../src/project-root.js';
import { modelToRevisionInput } from '../src/revision/records.js';
import { openStore } from '../src/store/index.js';
import { arg, median, projectDirectoryOf } from './_helpers.js';

const repo = arg('repo', 'GitbookIO+git-sync-normalization');
const runs = Number(process.env.BENCH_RUNS ?? 3);
const chromium = loadConfig().chromiumPath;
const dir = join(corpusDir(), repo);
if (!existsSync(dir)) throw new Error(`corpus repository not found: ${dir}`);

const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;
const logger = createLogger('bench', { level: 'error', pretty: false });
const store = await openStore({ logger });
const pool = new ParsePool({ timeBudgetMs: 60_000 });
await store.orgs.ensure({ id: 'bench', title: 'Bench' });
const tree = await readWorkingTree(dir);
const imported = await importTree(tree, { projectDirectory: projectDirectoryOf(repo) });
const fileBytes = new Map<string, Uint8Array>();
for (const f of imported.revision.files) {
  const entry = f.git ? tree.get(f.git.path) : undefined;
  if (entry) fileBytes.set(f.id, await entry.read());
}
const space = await store.spaces.create('bench', { title: repo });
const { id: revisionId } = await store.revisions.create(
  modelToRevisionInput(imported.revision, { spaceId: space.id, parents: [], type: 'git-import', fileBytes }),
);
await store.spaces.setPrimaryRevision(space.id, revisionId);
const sections = planSections(imported.revision.pages, { pageId: null, only: false });
const render = (input: Parameters<typeof pool.run<'publish.render'>>[1]) => pool.run('publish.render', input);

/** The baseline: the same pages rendered alike, each printed as its own PDF by one Chromium. */
async function directPrint(): Promise<{ ms: number; bytes: number }> {
  const t = process.hrtime.bigint();
  const printer = await launchPrinter(chromium, new AbortController().signal);
  const css = new TextEncoder().encode(PRINT_STYLESHEET);
  let bytes = 0;
  try {
    for (const [i, s] of sections.entries()) {
      const body = await render({ markdown: s.page.markdown ?? '', rootPrefix: '', links: {}, specs: {} });
      const one = { anchor: sectionAnchor(i + 1), title: s.page.title, description: s.page.description ?? '', depth: 0, html: body.html };
      const html = new TextEncoder().encode(
        printDocumentHtml({ title: s.page.title, subtitle: '', language: 'en', sections: [one] }, '_static/print.css').replace(
          /<div class="pdf-cover">[\s\S]*?<\/nav>/,
          '',
        ),
      );
      const { pdf } = await printer.print(
        async (p) => (p === '/' ? { contentType: 'text/html', body: html } : p === '/_static/print.css' ? { contentType: 'text/css', body: css } : null),
        { format: 'A4', printBackground: true, margin: { top: '18mm', bottom: '18mm', left: '15mm', right: '15mm' } },
      );
      bytes += pdf.byteLength;
    }
  } finally {
    await printer.close();
  }
  return { ms: ms(t), bytes };
}

const exportTimes: number[] = [];
const baseline: number[] = [];
let last = { pdfPages: 0, bytes: 0, baselineBytes: 0 };
for (let run = 0; run < runs; run++) {
  // A fresh export each run (a scope key of its own: a change-request id that names no change request).
  const { record: fresh } = await store.pdfExports.ensure({
    organizationId: 'bench',
    spaceId: space.id,
    changeRequestId: `bench-run-${run}`,
    revisionId,
    pageId: null,
    only: false,
  });
  const t = process.hrtime.bigint();
  const out = await runPdfExport(
    { store, render, logger, chromiumPath: chromium, budgetMs: 30 * 60_000 },
    { organizationId: 'bench', exportId: fresh.id, attempt: fresh.attempt },
  );
  exportTimes.push(ms(t));
  const direct = await directPrint();
  baseline.push(direct.ms);
  last = { pdfPages: out.record.pdfPages ?? 0, bytes: out.record.bytes ?? 0, baselineBytes: direct.bytes };
}
await pool.close();
await store.close();
const exportMs = median(exportTimes);
const baselineMs = median(baseline);
console.log(
  JSON.stringify({
    bench: 'pdf',
    repo,
    pages: sections.length,
    runs,
    exportMs: Math.round(exportMs),
    directPrintMs: Math.round(baselineMs),
    ratio: Number((exportMs / baselineMs).toFixed(2)),
    pdfPages: last.pdfPages,
    pdfBytes: last.bytes,
    directPrintBytes: last.baselineBytes,
  }),
);
