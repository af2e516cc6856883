import { describe, expect, it } from 'vitest';
import { joinBlocks, mergePageText, splitBlocks } from '../../src/change-requests/block-merge.js';

const page = (...blocks: string[]) => `---\ndescription: D\n---\n\n# Title\n\n${blocks.join('\n\n')}\n`;
const BASE = page('one', '## two', 'three', '```js\nfour\n```', 'five');

describe('block-level three-way merge of a page', () => {
  it('cuts a page into its head and top-level blocks and puts it back byte for byte', () => {
    const split = splitBlocks(BASE);
    expect(split.head).toBe('---\ndescription: D\n---\n\n# Title\n\n');
    expect(split.blocks).toEqual(['one\n\n', '## two\n\n', 'three\n\n', '```js\nfour\n```\n\n', 'five\n']);
    expect(split.types).toEqual(['paragraph', 'heading', 'paragraph', 'code', 'paragraph']);
    for (const text of [BASE, '\uFEFF# T\r\n\r\na\r\n\r\nb\r\n', '', 'no title\n', '# Only\n']) expect(joinBlocks(splitBlocks(text))).toBe(text);
  });

  it.each([
    [
      'different blocks',
      page('one!', '## two', 'three', '```js\nfour\n```', 'five'),
      page('one', '## two', 'three', '```js\nfour\n```', 'five!'),
      page('one!', '## two', 'three', '```js\nfour\n```', 'five!'),
    ],
    [
      'neighbouring blocks',
      page('one', '## two!', 'three', '```js\nfour\n```', 'five'),
      page('one', '## two', 'three!', '```js\nfour\n```', 'five'),
      page('one', '## two!', 'three!', '```js\nfour\n```', 'five'),
    ],
    [
      'an insertion and an edit',
      page('zero', 'one', '## two', 'three', '```js\nfour\n```', 'five'),
      page('one', '## two', 'three', '```js\nFOUR\n```', 'five'),
      page('zero', 'one', '## two', 'three', '```js\nFOUR\n```', 'five'),
    ],
    [
      'a deletion and an edit',
      page('one', 'three', '```js\nfour\n```', 'five'),
      page('one', '## two', 'three', '```js\nfour\n```', 'five?'),
      page('one', 'three', '```js\nfour\n```', 'five?'),
    ],
    [
      'the same edit on both sides',
      page('one', '## two', 'THREE', '```js\nfour\n```', 'five'),
      page('one', '## two', 'THREE', '```js\nfour\n```', 'five'),
      page('one', '## two', 'THREE', '```js\nfour\n```', 'five'),
    ],
    [
      'the title and a block',
      page('one', '## two', 'three', '```js\nfour\n```', 'five').replace('# Title', '# New title'),
      page('one', '## two', 'three', '```js\nfour\n```', 'five!'),
      page('one', '## two', 'three', '```js\nfour\n```', 'five!').replace('# Title', '# New title'),
    ],
  ])('merges edits of %s', (_name, ours, theirs, expected) => {
    expect(mergePageText(BASE, ours, theirs)).toEqual({ merged: true, text: expected });
    expect(mergePageText(BASE, theirs, ours)).toEqual({ merged: true, text: expected });
  });

  it('gives a conflict naming the blocks both sides changed differently, merging nothing', () => {
    const ours = page('one', '## two', 'three (primary)', '```js\nfour\n```', 'five!');
    const theirs = page('one!', '## two', 'three (change request)', '```js\nfour\n```', 'five');
    expect(mergePageText(BASE, ours, theirs)).toEqual({
      merged: false,
      head: false,
      blocks: [{ primary: { from: 2, to: 3 }, changeRequest: { from: 2, to: 3 } }],
      primaryBlocks: 5,
      changeRequestBlocks: 5,
    });
    // An insertion on one side beside an edit of the other at the same place is a conflict over both ranges.
    const inserted = page('one', '## two', 'new', 'three', '```js\nfour\n```', 'five');
    const edited = page('one', '## two!', 'three', '```js\nfour\n```', 'five');
    const result = mergePageText(BASE, edited, inserted);
    expect(result.merged).toBe(false);
    // Both sides changing the title is a conflict of the head.
    const titled = (t: string) => BASE.replace('# Title', `# ${t}`);
    expect(mergePageText(BASE, titled('A'), titled('B'))).toMatchObject({ merged: false, head: true, blocks: [] });
  });
});
