/**
 * The searchable text of a page body: the text before the first heading, then one section per heading (its
 * text, its anchor id as GitBook makes it, and the text under it). Text comes from paragraphs, lists, tables,
 * hints, tabs, expandables, code blocks (`{% code %}` included: in a cheat sheet, what readers search for is
 * mostly code) and every other block's children; HTML tags, front matter and Liquid tags without content are
 * left out.
 */
import type { Nodes, Root } from 'mdast';
import { parsePageFile } from '../format/index.js';

export interface SearchSection {
  /** Heading text; '' for the text before the first heading. */
  title: string;
  /** Anchor id of the heading (custom `<a id>` or GitBook's slug of its text); '' for the text before the first heading. */
  anchor: string;
  depth: number;
  body: string;
}

export interface SearchablePage {
  description: string;
  sections: SearchSection[];
}

/** GitBook's heading anchor: lower-case, letters and digits of any script kept, the rest collapsed to `-`. */
export function headingAnchor(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

function text(node: Nodes): string {
  switch (node.type) {
    case 'yaml':
      return '';
    case 'code':
      return node.value;
    case 'html':
      return node.value.replace(/<[^>]*>/g, ' ');
    case 'image':
      return node.alt ?? '';
    case 'text':
    case 'inlineCode':
      return node.value;
    case 'break':
      return '\n';
    default:
      break;
  }
  if ('children' in node) {
    const inline =
      node.type === 'paragraph' ||
      node.type === 'heading' ||
      node.type === 'tableCell' ||
      node.type === 'link' ||
      node.type === 'emphasis' ||
      node.type === 'strong' ||
      node.type === 'delete';
    return (node.children as Nodes[]).map(text).join(inline ? '' : '\n');
  }
  if ('value' in node && typeof node.value === 'string' && (node as { type: string }).type !== 'liquidTag') return node.value;
  return '';
}

function squeeze(value: string): string {
  return value
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

/** Custom anchor `<a href="#x" id="x"></a>` at the end of a heading. */
function customAnchor(node: Nodes): string | undefined {
  if (!('children' in node)) return undefined;
  for (const child of node.children as Nodes[]) {
    if (child.type === 'html') {
      const m = /\bid="([^"]+)"/.exec(child.value);
      if (m) return m[1];
    }
  }
  return undefined;
}

/** Sections of a markdown page (front matter `description` kept apart). Runs in the parse pool. */
export function searchSections(markdown: string): SearchablePage {
  const file = parsePageFile(markdown);
  const root: Root = file.document;
  const description = file.frontMatter?.description ?? '';
  const sections: SearchSection[] = [];
  const used = new Map<string, number>();
  let current: SearchSection = { title: '', anchor: '', depth: 0, body: '' };
  const parts: string[] = [];
  const flush = () => {
    current.body = squeeze(parts.join('\n'));
    if (current.anchor !== '' || current.body !== '') sections.push(current);
    parts.length = 0;
  };
  for (const node of root.children as Nodes[]) {
    if (node.type === 'heading') {
      flush();
      const title = squeeze(text(node));
      let anchor = customAnchor(node) ?? headingAnchor(title);
      if (anchor === '') anchor = 'section';
      const seen = used.get(anchor) ?? 0;
      used.set(anchor, seen + 1);
      if (seen > 0) anchor = `${anchor}-${seen}`;
      current = { title, anchor, depth: node.depth, body: '' };
    } else {
      parts.push(text(node));
    }
  }
  flush();
  return { description: squeeze(description), sections };
}
