import type { RootContent } from 'mdast';
import type { LiquidAttribute, LiquidBlock } from '../../format/index.js';
import type { ToDocumentContext } from '../converter.js';
import { NoDocumentForm } from '../converter.js';

/** The named attributes of a Liquid tag as plain values (`\"` unescaped); null when it has a positional one or a repeated name. */
export function attributeValues(attributes: LiquidAttribute[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const a of attributes) {
    if (a.name === null || Object.hasOwn(out, a.name)) return null;
    out[a.name] = a.quote === '' ? a.value : a.value.replace(/\\(["'\\])/g, '$1');
  }
  return out;
}

/** The Liquid block `name` of a node, with its attribute values, when only `known` attributes are set (else no document form). */
export function liquidOf(node: RootContent, name: string, known: string[]): { block: LiquidBlock; values: Record<string, string> } | null {
  if (node.type !== 'liquidBlock' || node.name !== name) return null;
  const values = attributeValues(node.attributes);
  if (!values || Object.keys(values).some((k) => !known.includes(k))) throw new NoDocumentForm();
  return { block: node, values };
}

/** Keeps a Liquid block's exact attributes (quotes, order, escapes) and its self-closing form with its document element. */
export function keepTag(element: { key?: string }, block: LiquidBlock, ctx: ToDocumentContext, extra: Record<string, unknown> = {}): void {
  ctx.hint(element, {
    attrs: { ...(block.attributes.length > 0 ? { liquid: block.attributes } : {}), ...(block.selfClosing ? { selfClosing: true } : {}), ...extra },
  });
}

/**
 * The attributes of a Liquid block for the values a document gives: the kept ones when they say the same,
 * else `name="value"` in `order`.
 */
export function attributesFor(values: Record<string, string | undefined>, order: string[], kept: unknown): LiquidAttribute[] {
  const wanted = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Record<string, string>;
  if (Array.isArray(kept)) {
    const had = attributeValues(kept as LiquidAttribute[]);
    if (had && Object.keys(had).length === Object.keys(wanted).length && Object.entries(wanted).every(([k, v]) => had[k] === v))
      return kept as LiquidAttribute[];
  }
  const names = [...order.filter((k) => k in wanted), ...Object.keys(wanted).filter((k) => !order.includes(k))];
  return names.map((name) => ({ name, value: wanted[name]!.replace(/(["\\])/g, '\\$1'), quote: '"' as const }));
}

export function liquidBlock(name: string, attributes: LiquidAttribute[], children: RootContent[], selfClosing = false): LiquidBlock {
  return { type: 'liquidBlock', name, attributes, selfClosing, children } as LiquidBlock;
}

/** `"true"` / `"false"` ⇄ booleans (anything else has no document form). */
export function booleanAttribute(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new NoDocumentForm();
}
export const booleanText = (value: unknown): string | undefined => (typeof value === 'boolean' ? String(value) : undefined);
