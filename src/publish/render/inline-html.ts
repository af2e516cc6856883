/**
 * Inline HTML that spans markdown text, as GitBook writes buttons: `<a href="x.md" class="button primary">Quickstart</a>`.
 * The markdown parser gives three nodes (the opening tag, the text, the closing tag); sanitized one by one, the link
 * would lose its text (an empty `<a>`, which a screen reader announces without a name) and the text its link. Here an
 * opening tag, the plain text after it and its closing tag become one `html` node, sanitized as one fragment.
 */
import type { Html, Parent, Root, RootContent, Text } from 'mdast';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const OPEN = /^<([a-zA-Z][\w-]*)(?:\s[^<>]*)?>$/;

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function openTag(node: RootContent): string | null {
  if (node.type !== 'html') return null;
  const m = OPEN.exec(node.value.trim());
  if (!m || node.value.trim().endsWith('/>')) return null;
  const name = m[1]!.toLowerCase();
  return VOID.has(name) ? null : name;
}

const isClose = (node: RootContent, name: string) => node.type === 'html' && new RegExp(`^</${name}\\s*>$`, 'i').test(node.value.trim());

/** The index of the closing tag that ends the element opened at `start`, with only plain text between; or -1. */
function closing(children: RootContent[], start: number, name: string): number {
  for (let i = start + 1; i < children.length; i++) {
    const c = children[i]!;
    if (isClose(c, name)) return i;
    if (c.type !== 'text') return -1;
  }
  return -1;
}

function joinIn(parent: Parent): void {
  const children = parent.children as RootContent[];
  for (let i = 0; i < children.length; i++) {
    const name = openTag(children[i]!);
    if (name === null) continue;
    const end = closing(children, i, name);
    if (end < 0) continue;
    const inner = (children.slice(i + 1, end) as Text[]).map((t) => escapeText(t.value)).join('');
    const joined: Html = { type: 'html', value: `${(children[i] as Html).value}${inner}${(children[end] as Html).value}` };
    children.splice(i, end - i + 1, joined);
  }
  for (const c of children) if ('children' in c && Array.isArray(c.children)) joinIn(c as Parent);
}

export function joinInlineHtml(tree: Root): void {
  joinIn(tree);
}
