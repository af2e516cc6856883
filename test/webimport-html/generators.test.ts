import { describe, expect, it } from 'vitest';
import { measureFidelity } from '../helpers/import-fidelity.js';
import { buildSite, GENERATORS } from '../helpers/site-generators.js';

/**
 * Sites built by HonKit, MkDocs and Sphinx from two corpus repositories, read back from disk through the website
 * import's analyze + convert (no network, no Temporal) and compared with the GitBook sources: GitBook's showcase of
 * every basic block (hints, tabs, titled code, math, tables, images, page links) and a real 77-page space with
 * 509 code blocks.
 */
const REPOS = ['GitbookIO+git-sync-normalization', 'stacks-network+docs'];

describe('website import of sites built by real generators', () => {
  for (const repo of REPOS) {
    for (const generator of GENERATORS) {
      it(`${generator} × ${repo}: pages, navigation order, text, code, images and links come back`, { timeout: 400_000 }, async () => {
        const site = await buildSite(generator, repo);
        const report = await measureFidelity(site);
        const { missing, dissimilar, ...figures } = report;
        console.log(JSON.stringify({ ...figures, dissimilar }));
        expect(report.pageRecall).toBeGreaterThanOrEqual(0.98);
        expect(report.navOrderKept).toBe(true);
        expect(dissimilar, 'pages under 95% text similarity').toEqual([]);
        expect(missing.code, 'code blocks not byte-equal in content and language').toEqual([]);
        expect(report.codeBlocks.total).toBeGreaterThan(0);
        expect(missing.images, 'images not present or not referenced from their page').toEqual([]);
        expect(report.images.total).toBeGreaterThan(0);
        expect(report.links.ratio, missing.links.join('\n')).toBeGreaterThanOrEqual(0.98);
        expect(report.links.total).toBeGreaterThan(0);
      });
    }
  }
});
