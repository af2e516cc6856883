/**
 * Warm-up of a worker (issue 17: the first import after a worker started was up to 2× slower): imports a small
 * in-memory GitBook tree through the pool, which starts every thread of the pool, loads the markdown parser in each
 * and compiles the converter's hot paths in this thread, before the first real import needs them.
 */
import { importTree, treeFromFiles } from '../format/index.js';
import { poolPageCodec } from './page-codec.js';
import type { ParsePool } from './pool.js';

function samplePage(i: number): string {
  return [
    '---',
    `description: Sample page ${i}`,
    'icon: book',
    '---',
    '',
    `# Sample ${i}`,
    '',
    `Some **bold**, _emphasis_, \`code\`, a [link](page-${i + 1}.md) and ![an image](.gitbook/assets/x.png).`,
    '',
    '| a | b |',
    '| - | - |',
    '| 1 | 2 |',
    '',
    '{% hint style="info" %}',
    'A hint.',
    '{% endhint %}',
    '',
    '```js',
    'console.log(1);',
    '```',
    '',
    '- [ ] task',
    '- [x] done',
    '',
  ].join('\n');
}

/** Runs the warm-up; resolves when every thread of the pool is started and has parsed pages. */
export async function warmUpParsePool(pool: ParsePool): Promise<void> {
  const pages = Math.max(4, pool.threads * 4);
  const files: Record<string, string> = { 'README.md': '# Warm-up\n\nA sample space.\n' };
  const summary = ['# Table of contents', '', '* [Warm-up](README.md)'];
  for (let i = 1; i <= pages; i++) {
    files[`page-${i}.md`] = samplePage(i);
    summary.push(`* [Sample ${i}](page-${i}.md)`);
  }
  files['SUMMARY.md'] = summary.join('\n') + '\n';
  // Every thread started and ready first (tasks alone would let the first ready thread take them all), then pages
  // decoded in each, then a sample import through the pool.
  await pool.startAll();
  // One key per page: no key runs on more than `threads` threads, and the spare ones are to be warm too.
  await Promise.all(Array.from({ length: pool.threads + pool.spareThreads }, (_, i) => pool.runWith({ key: `warm-up-${i}` }, 'page.decode', samplePage(i))));
  await importTree(treeFromFiles(files), { codec: poolPageCodec(pool) });
}
