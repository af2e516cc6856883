import type { Nodes, Root } from 'mdast';
import { parsePageFile } from '../../format/index.js';

type Leaf = { object: 'leaf'; text: string; marks: Array<{ object: 'mark'; type: string }> };
type Block = { object: 'block'; type: string; nodes: unknown[]; data?: Record<string, unknown> };

/** The plain text of an mdast node (text, inline code, children), without markup. */
function plain(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(plain).join('');
  return '';
}

/** Text leaves with bold/italic/code/strikethrough marks. */
function leaves(nodes: Nodes[], marks: string[] = []): Leaf[] {
  const out: Leaf[] = [];
  for (const node of nodes) {
    const markOf: Record<string, string> = { strong: 'bold', emphasis: 'italic', delete: 'strikethrough' };
    if (node.type === 'text') out.push({ object: 'leaf', text: node.value, marks: marks.map((type) => ({ object: 'mark', type })) });
    else if (node.type === 'inlineCode') out.push({ object: 'leaf', text: node.value, marks: [...marks, 'code'].map((type) => ({ object: 'mark', type })) });
    else if (node.type === 'break') out.push({ object: 'leaf', text: '\n', marks: [] });
    else if (markOf[node.type] && 'children' in node) out.push(...leaves(node.children as Nodes[], [...marks, markOf[node.type]!]));
    else if ('children' in node) out.push(...leaves(node.children as Nodes[], marks));
    else if ('value' in node && typeof node.value === 'string')
      out.push({ object: 'leaf', text: node.value, marks: marks.map((type) => ({ object: 'mark', type })) });
  }
  return out.length > 0 ? out : [{ object: 'leaf', text: '', marks: [] }];
}

const textNode = (children: Nodes[]) => ({ object: 'text', leaves: leaves(children) });
const paragraph = (text: string): Block => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

/**
 * A GitBook JSON document (`JSONDocument`) for a page's markdown body: headings and paragraphs with their
 * text marks; every other construct (lists, code, hints, tables, Liquid blocks…) becomes a paragraph holding
 * its plain text. The markdown form (`?format=markdown`) is the lossless one.
 */
export function markdownToDocument(pageText: string): { object: 'document'; data: Record<string, never>; nodes: Block[] } {
  const file = parsePageFile(pageText);
  const root: Root = file.document;
  const nodes: Block[] = [];
  for (const node of root.children as Nodes[]) {
    if (node.type === 'heading') {
      const level = Math.min(Math.max(node.depth, 1), 3);
      nodes.push({ object: 'block', type: `heading-${level}`, nodes: [textNode(node.children as Nodes[])] });
    } else if (node.type === 'paragraph') {
      nodes.push({ object: 'block', type: 'paragraph', nodes: [textNode(node.children as Nodes[])] });
    } else if (node.type === 'yaml' || node.type === 'html') {
      continue;
    } else {
      const text = plain(node);
      if (text.trim() !== '') nodes.push(paragraph(text));
    }
  }
  return { object: 'document', data: {}, nodes };
}
