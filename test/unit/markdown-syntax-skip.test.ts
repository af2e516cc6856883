/**
 * The parse leaves out the GFM syntax extensions whose constructs cannot occur in a page (src/format/markdown/plugins/gfm.ts):
 * the tree must be the one the parse with every extension gives, on pages that hold each construct in its least
 * obvious form (a table without a pipe, a task item with a tab) and on pages that only come close to one.
 */
import { describe, expect, it } from 'vitest';
import { fromMarkdown, type Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import type { Extension } from 'micromark-util-types';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import { remarkGitbookGfm, syntaxFor } from '../../src/format/markdown/plugins/gfm.js';
import { remarkGitbookMath } from '../../src/format/markdown/plugins/math.js';
import { remarkLiquid } from '../../src/format/markdown/liquid/remark-liquid.js';
import { defaultRegistry } from '../../src/format/markdown/plugins/index.js';

const processor = unified()
  .use(remarkParse)
  .use(remarkGitbookGfm)
  .use(remarkGitbookMath)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkLiquid, { registry: defaultRegistry() })
  .freeze();
const all = processor.data('micromarkExtensions') as Extension[];

const PAGES: Record<string, string> = {
  'table with pipes': '| a | b |\n| - | - |\n| 1 | 2 |\n',
  'one-column table without a pipe, left aligned': 'a\n:-\nb\n',
  'one-column table without a pipe, right aligned': 'a\n-:\nb\n',
  'setext heading, not a table': 'a\n--\nb\n',
  'footnote call and definition': 'text[^1]\n\n[^1]: note\n',
  'image label with a caret': '![^a](x.png)\n\n[^a]: n\n',
  strikethrough: 'a ~~gone~~ b ~one~\n',
  'task items': '* [ ] open\n* [x] done\n* [X] done\n* [\t] tab\n',
  'task item across a line': '* [\n] x\n',
  'brackets only': '* [link](x) [y]\n\n[y]: z\n',
  'math and Liquid': '$$\nx\n$$\n\n{% hint style="info" %}\n**b** _c_\n{% endhint %}\n',
  'front matter': '---\ntitle: x\n---\n\n# T\n',
};

describe('parse without the syntax extensions a page cannot use', () => {
  for (const [name, text] of Object.entries(PAGES)) {
    it(`gives the same tree: ${name}`, () => {
      const mdastExtensions = processor.data('fromMarkdownExtensions') as FromMarkdownExtension[];
      const skipped = fromMarkdown(text, { extensions: syntaxFor(all, text), mdastExtensions });
      expect(skipped).toEqual(processor.parse(text));
    });
  }

  it('leaves out the extensions of constructs absent from the page', () => {
    expect(syntaxFor(all, 'plain text\n\n* item\n').length).toBe(all.length - 4);
    expect(syntaxFor(all, '| a |\n| - |\n').length).toBe(all.length - 3);
  });
});
