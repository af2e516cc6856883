import type { Code, RootContent } from 'mdast';
import type { BlockConverter, ToDocumentContext } from '../converter.js';
import { NoDocumentForm } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import type { DocumentBlock, DocumentText } from '../types.js';
import { attributesFor, booleanAttribute, booleanText, keepTag, liquidBlock, liquidOf } from './liquid.js';

const OPTIONS = ['title', 'overflow', 'lineNumbers', 'fullWidth', 'expandable'];

function codeElement(node: Code, ctx: ToDocumentContext): DocumentBlock {
  const block: DocumentBlock = {
    object: 'block',
    type: 'code',
    data: node.lang ? { syntax: node.lang } : {},
    nodes: node.value.split('\n').map((line) => ({
      object: 'block' as const,
      type: 'code-line',
      data: {},
      nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: line, marks: [] }] }],
    })),
  };
  ctx.hint(block, { attrs: node.meta != null ? { meta: node.meta } : undefined });
  return block;
}

/**
 * Code blocks ⇄ `code` of `code-line`s (`syntax`); the options GitBook writes as
 * `{% code title="…" overflow="wrap" lineNumbers="true" fullWidth="…" expandable="…" %}` around the fence are
 * the block's `title`, `overflow`, `lineNumbers`, `fullWidth`, `expandable`.
 */
export const codeBlock: BlockConverter = {
  name: 'code',
  types: ['code'],
  toDocument(node, ctx) {
    if (node.type === 'code') return codeElement(node, ctx);
    const liquid = liquidOf(node, 'code', OPTIONS);
    if (!liquid) return null;
    const inner = liquid.block.children;
    if (inner.length !== 1 || inner[0]!.type !== 'code' || liquid.block.selfClosing) throw new NoDocumentForm();
    const { title, overflow, lineNumbers, fullWidth, expandable } = liquid.values;
    if (overflow !== undefined && overflow !== 'wrap' && overflow !== 'scroll') throw new NoDocumentForm();
    const block = codeElement(inner[0] as Code, ctx);
    const options = {
      title,
      overflow,
      lineNumbers: booleanAttribute(lineNumbers),
      fullWidth: booleanAttribute(fullWidth),
      expandable: booleanAttribute(expandable),
    };
    for (const [k, v] of Object.entries(options)) if (v !== undefined) block.data![k] = v;
    keepTag(block, liquid.block, ctx, { liquidTag: true, ...(inner[0]!.data ? { innerData: inner[0]!.data } : {}) });
    return block;
  },
  fromDocument(block, ctx, path) {
    const lines = (block.nodes ?? []).map((line, i) => {
      const l = line as DocumentBlock;
      if (l?.object !== 'block' || l.type !== 'code-line') throw new DocumentInvalidError('a code block holds code-line blocks', `${path}/nodes/${i}`);
      return (l.nodes ?? []).map((t) => ((t as DocumentText).leaves ?? []).map((leaf) => leaf.text).join('')).join('');
    });
    const data = block.data ?? {};
    const attrs = ctx.hint(block)?.attrs ?? {};
    const code: Code = { type: 'code', lang: typeof data.syntax === 'string' && data.syntax !== '' ? data.syntax : null, meta: null, value: lines.join('\n') };
    if (typeof attrs.meta === 'string') code.meta = attrs.meta;
    const values = {
      title: typeof data.title === 'string' ? data.title : undefined,
      overflow: data.overflow === 'wrap' || (data.overflow === 'scroll' && attrs.liquidTag) ? data.overflow : undefined,
      lineNumbers: booleanText(data.lineNumbers),
      fullWidth: booleanText(data.fullWidth),
      expandable: booleanText(data.expandable),
    };
    if (!attrs.liquidTag && Object.values(values).every((v) => v === undefined)) return code;
    if (attrs.innerData) code.data = structuredClone(attrs.innerData) as Code['data'];
    return liquidBlock('code', attributesFor(values, OPTIONS, attrs.liquid), [code] as RootContent[]);
  },
};
