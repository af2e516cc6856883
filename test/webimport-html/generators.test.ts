import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { measureFidelity, readImportedSite, type FidelityReport } from '../helpers/import-fidelity.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { buildSite, GENERATORS } from '../helpers/site-generators.js';
import { serveDirectory } from '../helpers/static-site.js';

/**
 * Sites built by HonKit, MkDocs and Sphinx from corpus repositories, served on loopback and imported by the real
 * pipeline (an import run through the API: the workflow, the crawl through the fetch guard, checkpoints in the store,
 * conversion in the parse pool, the git converter, the revision), then each imported page of the revision compared
 * with its GitBook source: GitBook's showcase of every basic block (hints, tabs, titled code, math, tables, images,
 * page links), a real 77-page space with 509 code blocks, and a real 149-page space with 116 images.
 */
const REPOS = ['GitbookIO+git-sync-normalization', 'stacks-network+docs', 'wandb+gitbook'];

let folio: TestFolio;
const figures: FidelityReport[] = [];

beforeAll(async () => {
  folio = await startFolio({ env: { FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS, WEBIMPORT_DELAY_MS: '0', WEBIMPORT_CONCURRENCY: '8' } });
});

afterAll(async () => {
  await folio?.stop();
  // The figures per generator and repository, in one table.
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  const rows = figures.map((f) =>
    [
      f.generator,
      f.repo,
      `${f.pages}`,
      pct(f.pageRecall),
      f.navOrderKept ? 'kept' : 'NOT kept',
      `${pct(f.similarity.min)} / ${pct(f.similarity.p5)} / ${pct(f.similarity.median)}`,
      `${f.codeBlocks.equal}/${f.codeBlocks.total}`,
      `${f.images.present}/${f.images.total}`,
      `${f.links.resolved}/${f.links.total} (${pct(f.links.ratio)})`,
    ].join(' | '),
  );
  console.log(['generator | repository | pages | recall | nav order | similarity min / p5 / median | code | images | links', ...rows].join('\n'));
});

interface Run {
  id: string;
  status: string;
  reason?: string;
  revision?: string;
}

/** Imports `url` into a new space through the official import runs; the finished run. */
async function importSite(title: string, url: string): Promise<Run> {
  const space = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title });
  expect(space.status, JSON.stringify(space.body)).toBe(201);
  const started = await folio.request('POST', `/v1/org/${folio.organizationId}/imports`, {
    source: { type: 'website', url },
    target: { space: space.body.id },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  let run = started.body as Run;
  const deadline = Date.now() + 600_000;
  while (run.status === 'pending' || run.status === 'in-progress') {
    if (Date.now() > deadline) throw new Error(`the import did not finish: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 500));
    run = (await folio.request('GET', `/v1/org/${folio.organizationId}/imports/${run.id}`)).body as Run;
  }
  return run;
}

describe('website import of sites built by real generators', () => {
  for (const repo of REPOS) {
    for (const generator of GENERATORS) {
      it(`${generator} × ${repo}: pages, navigation order, text, code, images and links come back`, { timeout: 900_000 }, async () => {
        const site = await buildSite(generator, repo);
        const server = await serveDirectory(site.outDir);
        try {
          const startUrl = server.base + site.pages[0]!.urlPath;
          const run = await importSite(`${generator} ${repo}`, startUrl);
          expect(run.status, JSON.stringify(run)).toBe('completed');
          const imported = await readImportedSite(site, folio.store, run.id, run.revision!, startUrl);
          const report = await measureFidelity(site, imported);
          figures.push(report);
          const { missing, dissimilar, ...rest } = report;
          console.log(JSON.stringify({ ...rest, dissimilar, missingImages: missing.images.slice(0, 20) }));
          expect(report.pageRecall).toBeGreaterThanOrEqual(0.98);
          expect(report.navOrderKept).toBe(true);
          expect(dissimilar, 'pages under 95% text similarity').toEqual([]);
          expect(missing.code, 'code blocks not byte-equal in content and language').toEqual([]);
          expect(report.codeBlocks.total).toBeGreaterThan(0);
          expect(missing.images, 'images not present as files or not referenced from their page').toEqual([]);
          expect(report.images.total).toBeGreaterThan(0);
          expect(report.links.ratio, missing.links.join('\n')).toBeGreaterThanOrEqual(0.98);
          expect(report.links.total).toBeGreaterThan(0);
        } finally {
          await server.stop();
        }
      });
    }
  }
});
