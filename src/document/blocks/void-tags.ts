import type { RootContent } from 'mdast';
import type { ToDocumentContext, FromDocumentContext } from '../converter.js';
import { NoDocumentForm } from '../converter.js';
import type { DocumentBlock } from '../types.js';
import { attributesFor, keepTag, liquidBlock, liquidOf } from './liquid.js';

/**
 * A Liquid tag that is a void block in a document (embed, file, content-ref, openapi…): its attributes are
 * the block's data. Markdown children GitBook derives from the data (a content-ref's link line, an openapi
 * block's summary) are kept with the block and written back while the data stays the same.
 */
export function voidToDocument(
  node: RootContent,
  ctx: ToDocumentContext,
  tag: string,
  known: string[],
  toData: (values: Record<string, string>) => { type: string; data: Record<string, unknown> } | null,
): DocumentBlock | null {
  const liquid = liquidOf(node, tag, known);
  if (!liquid) return null;
  const mapped = toData(liquid.values);
  if (!mapped) throw new NoDocumentForm();
  const block: DocumentBlock = { object: 'block', type: mapped.type, isVoid: true, data: mapped.data };
  keepTag(block, liquid.block, ctx, liquid.block.children.length > 0 ? { children: liquid.block.children, valuesOfChildren: liquid.values } : {});
  return block;
}

export function voidFromDocument(
  block: DocumentBlock,
  ctx: FromDocumentContext,
  tag: string,
  order: string[],
  values: Record<string, string | undefined>,
  selfClosingByDefault: boolean,
): RootContent {
  const attrs = ctx.hint(block)?.attrs ?? {};
  const kept = attrs.valuesOfChildren as Record<string, string> | undefined;
  const same = kept && Object.entries(values).every(([k, v]) => v === kept[k]) && Object.keys(kept).every((k) => values[k] === kept[k]);
  const children = same && Array.isArray(attrs.children) ? (structuredClone(attrs.children) as RootContent[]) : [];
  const selfClosing = children.length === 0 && (attrs.selfClosing === true || (attrs.liquid === undefined && selfClosingByDefault));
  return liquidBlock(tag, attributesFor(values, order, attrs.liquid), children, selfClosing);
}
