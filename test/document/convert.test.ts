import { describe, it, expect } from 'vitest';
import { documentToMarkdown, markdownToDocument, DocumentInvalidError, type JSONDocument } from '../../src/document/index.js';
import { documentErrors } from '../helpers/document-schema.js';

const t = (text: string, marks: string[] = []) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
const p = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });
const strip = (d: JSONDocument) => JSON.parse(JSON.stringify(d, (k, v: unknown) => (k === 'key' ? undefined : v))) as { data: unknown; nodes: unknown[] };

describe('markdown → JSON document', () => {
  it('gives every construct its document form, valid against the official schema', () => {
    const md = [
      '## Install <a href="#setup" id="setup"></a>',
      '',
      'Some **bold _and italic_** text, `code`, ~~gone~~ and a [link](https://example.com) and $$x^2$$.',
      '',
      '1. one',
      '2. two',
      '',
      '- [x] done',
      '- [ ] todo',
      '',
      '> quoted',
      '',
      '```js',
      'let a = 1;',
      'let b = 2;',
      '```',
      '',
      '{% hint style="warning" %}',
      'Careful.',
      '{% endhint %}',
      '',
      '{% tabs %}',
      '{% tab title="A" %}',
      'In A.',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '| Name | Size |',
      '| ---- | ---: |',
      '| a    |    1 |',
      '',
      '***',
      '',
      '{% embed url="https://www.youtube.com/watch?v=1" %}',
      '',
    ].join('\n');
    const d = markdownToDocument(md);
    expect(documentErrors(d)).toEqual([]);
    expect(d.nodes.map((n) => n.type)).toEqual([
      'heading-2',
      'paragraph',
      'list-ordered',
      'list-tasks',
      'blockquote',
      'code',
      'hint',
      'tabs',
      'table',
      'divider',
      'embed',
    ]);
    expect(d.nodes[0]!.data).toEqual({ id: 'setup' });
    const leaves = (d.nodes[1]!.nodes![0] as { leaves: Array<{ text: string; marks: Array<{ type: string }> }> }).leaves;
    expect(leaves.map((l) => [l.text, l.marks.map((m) => m.type)])).toEqual([
      ['Some ', []],
      ['bold ', ['bold']],
      ['and italic', ['bold', 'italic']],
      [' text, ', []],
      ['code', ['code']],
      [', ', []],
      ['gone', ['strikethrough']],
      [' and a ', []],
    ]);
    expect(d.nodes[1]!.nodes![1]).toMatchObject({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://example.com' } } });
    expect(d.nodes[1]!.nodes!.find((n) => n.object === 'inline' && n.type === 'inline-math')).toMatchObject({ data: { formula: 'x^2' } });
    expect(d.nodes[3]!.nodes!.map((i) => (i.data as { checked: boolean }).checked)).toEqual([true, false]);
    expect(d.nodes[5]!.nodes).toHaveLength(2);
    expect(d.nodes[5]!.data).toEqual({ syntax: 'js' });
    expect(d.nodes[8]!.data).toMatchObject({ definition: { c2: { title: 'Size', textAlignment: 'right' } } });
    // Markdown with no document form (raw HTML) is shown as text and kept whole.
    const html = markdownToDocument('<details><summary>More</summary>\n\nHidden\n\n</details>\n');
    expect(documentErrors(html)).toEqual([]);
    expect(documentToMarkdown(html)).toBe('<details><summary>More</summary>\n\nHidden\n\n</details>\n');
  });
});

describe('JSON document → markdown', () => {
  it('writes a document a client made (no Folio hints) as GitBook markdown', () => {
    const d = doc(
      { object: 'block', type: 'heading-1', data: {}, nodes: [t('Guide')] },
      p(t('Hello '), t('world', ['bold']), t('.')),
      { object: 'block', type: 'list-unordered', data: {}, nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [p(t('item'))] }] },
      {
        object: 'block',
        type: 'code',
        data: { syntax: 'sh', title: 'run.sh' },
        nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [t('npm start')] }],
      },
      { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [p(t('Note'))] },
    );
    expect(documentErrors(d)).toEqual([]);
    expect(documentToMarkdown(d)).toBe(
      '# Guide\n\nHello **world**.\n\n* item\n\n{% code title="run.sh" %}\n```sh\nnpm start\n```\n{% endcode %}\n\n{% hint style="info" %}\nNote\n{% endhint %}\n',
    );
  });

  it('reads its own documents back to the same document (no hints needed for the document form)', () => {
    const md = '# A\n\nText with **bold**.\n\n* one\n* two\n\n{% hint style="success" %}\nOK\n{% endhint %}\n';
    const first = markdownToDocument(md);
    const again = markdownToDocument(documentToMarkdown(strip(first)));
    expect(strip(again)).toEqual(strip(first));
  });

  it('keeps a page’s front matter, title and habits when a document edit replaces its body', () => {
    const original = '---\ndescription: Hi\n---\n\n# Title\n\n- a\n- b\n\nOld text.\n';
    const d = markdownToDocument(original);
    const leaf = (d.nodes[1]!.nodes![0] as { leaves: Array<{ text: string }> }).leaves[0]!;
    leaf.text = 'New text.';
    expect(documentToMarkdown(d, { original })).toBe('---\ndescription: Hi\n---\n\n# Title\n\n- a\n- b\n\nNew text.\n');
  });

  it('a kept construct whose text the client changed is written from the new text', () => {
    const d = markdownToDocument('<div>old</div>\n');
    (d.nodes[0]!.nodes![0] as { leaves: Array<{ text: string }> }).leaves[0]!.text = 'plain new text';
    expect(documentToMarkdown(d)).toBe('plain new text\n');
  });

  it('refuses a malformed document with the place of the problem', () => {
    expect(() => documentToMarkdown(doc(p(t('ok')), { object: 'block', type: 'no-such-block', nodes: [] }))).toThrow(DocumentInvalidError);
    expect(() => documentToMarkdown(doc(p(t('ok')), { object: 'block', type: 'no-such-block', nodes: [] }))).toThrow(/\/nodes\/1/);
    expect(() => documentToMarkdown({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'hint', data: { style: 'loud' }, nodes: [] }] })).toThrow(
      /hint style/,
    );
    expect(() => documentToMarkdown(doc(p({ object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'x' } }, nodes: [t('x')] })))).toThrow(
      /cannot be resolved/,
    );
    expect(() => documentToMarkdown({ nodes: [] })).toThrow(DocumentInvalidError);
  });
});
