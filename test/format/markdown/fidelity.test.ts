import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { parsePageFile, serializePageFile, pageFilesEqual, describeDifference } from '../../../src/format/markdown/index.js';
import { corpusRepos, yieldToEventLoop } from './corpus.js';

const repos = corpusRepos();

describe.skipIf(repos.length === 0)('GitBook corpus fidelity', () => {
  for (const repo of repos) {
    it(`${repo.name}: GitBook-written pages re-serialize byte-identically (>= 97%)`, async () => {
      let identical = 0;
      const failures: string[] = [];
      for (const rel of repo.written) {
        await yieldToEventLoop();
        const text = fs.readFileSync(path.join(repo.dir, rel), 'utf8');
        const out = serializePageFile(parsePageFile(text));
        if (out === text) identical++;
        else failures.push(rel);
      }
      const pct = (100 * identical) / repo.written.length;
      console.log(
        JSON.stringify({ repo: repo.name, written: repo.written.length, identical, percent: Number(pct.toFixed(2)), failures: failures.slice(0, 5) }),
      );
      expect(pct).toBeGreaterThanOrEqual(97);
    }, 300_000);

    it(`${repo.name}: parse(serialize(parse(x))) equals parse(x) for every page`, async () => {
      const broken: string[] = [];
      for (const rel of repo.all) {
        if (path.basename(rel) === 'SUMMARY.md') continue;
        await yieldToEventLoop();
        const text = fs.readFileSync(path.join(repo.dir, rel), 'utf8');
        const a = parsePageFile(text);
        const b = parsePageFile(serializePageFile(a));
        if (!pageFilesEqual(a, b)) broken.push(`${rel}: ${describeDifference(a, b)}`);
      }
      console.log(JSON.stringify({ repo: repo.name, pages: repo.all.length, modelRoundTripFailures: broken.length }));
      expect(broken.slice(0, 5)).toEqual([]);
    }, 300_000);
  }
});
