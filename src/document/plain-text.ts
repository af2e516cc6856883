import type { Nodes } from 'mdast';
import { toString } from 'mdast-util-to-string';

/** The text a reader sees of a markdown node (HTML shown as its source). */
export function markdownText(node: Nodes): string {
  if (node.type === 'html' || node.type === 'liquidTag') return node.value;
  return toString(node, { includeHtml: true });
}

/** The concatenated text of every leaf under a document element. */
export function documentText(element: unknown): string {
  if (!element || typeof element !== 'object') return '';
  const e = element as { leaves?: Array<{ text?: unknown }>; nodes?: unknown[]; fragments?: unknown[] };
  let out = '';
  if (Array.isArray(e.leaves)) for (const l of e.leaves) out += typeof l?.text === 'string' ? l.text : '';
  if (Array.isArray(e.nodes)) for (const n of e.nodes) out += documentText(n);
  if (Array.isArray(e.fragments)) for (const f of e.fragments) out += documentText(f);
  return out;
}

/** A deep copy of a markdown node without source positions. */
export function withoutPositions<T>(node: T): T {
  return JSON.parse(JSON.stringify(node, (k, v: unknown) => (k === 'position' ? undefined : v))) as T;
}
