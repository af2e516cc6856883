import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { parsePageFile, serializePageFile } from '../../src/format/index.js';
import { documentToRoot, rootToDocument } from '../../src/document/index.js';
import { documentErrors } from '../helpers/document-schema.js';
import { corpusRepos, yieldToEventLoop } from '../format/markdown/corpus.js';

const repos = corpusRepos();
/** Markdown nodes every page has a document form for: kept whole only where a sub-part has none. */
const CORE = ['paragraph', 'heading', 'list', 'code', 'table', 'blockquote', 'thematicBreak', 'liquid:hint', 'liquid:tabs', 'liquid:code'];

describe.skipIf(repos.length === 0)('JSON documents of the corpus', () => {
  for (const repo of repos) {
    it(`${repo.name}: every page's document validates strictly and gives the page's markdown back`, async () => {
      const schemaFailures: string[] = [];
      const byteFailures: string[] = [];
      let blocks = 0;
      let coreKept = 0;
      const kept: Record<string, number> = {};
      const pages = repo.all.filter((rel) => path.basename(rel) !== 'SUMMARY.md');
      for (const rel of pages) {
        await yieldToEventLoop();
        const page = parsePageFile(fs.readFileSync(path.join(repo.dir, rel), 'utf8'));
        const { document, stats } = rootToDocument(page.document);
        // What a client receives: JSON.
        const wire = JSON.parse(JSON.stringify(document)) as unknown;
        const errors = documentErrors(wire);
        if (errors.length > 0) schemaFailures.push(`${rel}: ${errors.slice(0, 3).join('; ')}`);
        const reference = serializePageFile(page);
        const fromDocument = serializePageFile({ ...page, document: documentToRoot(wire) });
        if (fromDocument !== reference) byteFailures.push(rel);
        blocks += stats.blocks;
        for (const [k, v] of Object.entries(stats.keptBlocks)) {
          kept[k] = (kept[k] ?? 0) + v;
          if (CORE.includes(k)) coreKept += v;
        }
      }
      console.log(
        JSON.stringify({ repo: repo.name, pages: pages.length, blocks, schemaFailures: schemaFailures.length, byteFailures: byteFailures.length, kept }),
      );
      expect(schemaFailures.slice(0, 5)).toEqual([]);
      expect(byteFailures.slice(0, 5)).toEqual([]);
      // Blocks with a document form are converted, not kept whole (a few hold an inline-only construct deep inside).
      expect(coreKept / blocks).toBeLessThan(0.01);
    }, 600_000);
  }
});
