import { describe, expect, it } from 'vitest';
import { measureFidelity } from '../helpers/import-fidelity.js';
import { buildSite, GENERATORS } from '../helpers/site-generators.js';

// GitBook's own showcase of every basic block: hints, tabs, titled code, math, tables, images, page links.
const REPO = 'GitbookIO+git-sync-normalization';

describe('website import of sites built by real generators', () => {
  for (const generator of GENERATORS) {
    it(`${generator}: pages, navigation, text, code, images and links come back`, async () => {
      const site = await buildSite(generator, REPO);
      const report = await measureFidelity(site);
      const { missing, dissimilar, ...figures } = report;
      console.log(JSON.stringify({ ...figures, dissimilar }));
      expect(report.pageRecall).toBeGreaterThanOrEqual(0.98);
      expect(report.navOrderKept).toBe(true);
      expect(dissimilar, 'pages under 95% text similarity').toEqual([]);
      expect(missing.code, 'code blocks not byte-equal').toEqual([]);
      expect(report.codeBlocks.total).toBeGreaterThan(0);
      expect(missing.images, 'images not present').toEqual([]);
      expect(report.images.total).toBeGreaterThan(0);
      expect(report.links.ratio, missing.links.join('\n')).toBeGreaterThanOrEqual(0.98);
      expect(report.links.total).toBeGreaterThan(0);
    });
  }
});
