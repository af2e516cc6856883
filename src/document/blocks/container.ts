import type { RootContent } from 'mdast';
import type { FromDocumentContext, ToDocumentContext } from '../converter.js';
import { NoDocumentForm } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import type { DocumentBlock } from '../types.js';
import { attributeValues, attributesFor, keepTag, liquidBlock } from './liquid.js';

/**
 * A Liquid container of Liquid items (`tabs`/`tab`, `stepper`/`step`, `columns`/`column`): every child must be
 * an item; an item's attributes map to its document `data` and back.
 */
export interface ItemMapping {
  tag: string;
  itemTag: string;
  type: string;
  itemType: string;
  /** Attribute names in GitBook's order. */
  order: string[];
  toData(values: Record<string, string>): Record<string, unknown>;
  fromData(data: Record<string, unknown>): Record<string, string | undefined>;
}

export function containerToDocument(node: RootContent, ctx: ToDocumentContext, m: ItemMapping): DocumentBlock | null {
  if (node.type !== 'liquidBlock' || node.name !== m.tag) return null;
  if (node.attributes.length > 0 || node.selfClosing || node.children.length === 0) throw new NoDocumentForm();
  const nodes = node.children.map((child) => {
    if (child.type !== 'liquidBlock' || child.name !== m.itemTag || child.selfClosing) throw new NoDocumentForm();
    const values = attributeValues(child.attributes);
    if (!values || Object.keys(values).some((k) => !m.order.includes(k))) throw new NoDocumentForm();
    const item: DocumentBlock = { object: 'block', type: m.itemType, data: m.toData(values), nodes: ctx.blocks(child.children, m.itemType) };
    keepTag(item, child, ctx);
    ctx.hint(item, { data: child.data as Record<string, unknown> | undefined });
    return item;
  });
  return { object: 'block', type: m.type, isVoid: false, data: {}, nodes };
}

export function containerFromDocument(block: DocumentBlock, ctx: FromDocumentContext, path: string, m: ItemMapping): RootContent {
  const items = (block.nodes ?? []).map((n, i) => {
    const at = `${path}/nodes/${i}`;
    const item = n as DocumentBlock;
    if (item?.object !== 'block' || item.type !== m.itemType) throw new DocumentInvalidError(`${m.type} holds ${m.itemType} blocks`, at);
    const h = ctx.hint(item);
    const out = liquidBlock(m.itemTag, attributesFor(m.fromData(item.data ?? {}), m.order, h?.attrs?.liquid), ctx.blocks(item.nodes, at));
    if (h?.data) out.data = structuredClone(h.data);
    return out;
  });
  return liquidBlock(m.tag, [], items);
}
