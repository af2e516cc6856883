import type { Html, Parent, RootContent } from 'mdast';
import { el, attr, text } from './hast.js';
import type { BlockRenderer, LiquidBlock } from './types.js';

/** The name of the block an expandable becomes before rendering (never written by the parser). */
const EXPANDABLE = 'folio-expandable';

const OPEN = /^<details(\s[^>]*)?>\s*(<summary>([\s\S]*?)<\/summary>)?\s*$/i;
const SUMMARY = /^<summary>([\s\S]*?)<\/summary>\s*$/i;
const CLOSE = /^\s*<\/details>\s*$/i;

function plain(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/**
 * GitBook writes expandables as HTML around markdown (`<details>`, `<summary>…</summary>`, blocks,
 * `</details>`): those separate HTML nodes are grouped into one block (nested ones too), whose content
 * stays markdown. Unpaired tags are left alone (and then dropped by the HTML sanitizer).
 */
export function groupExpandables(parent: Parent): void {
  const kids = parent.children as RootContent[];
  for (let i = 0; i < kids.length; i++) {
    const node = kids[i]!;
    if ('children' in node && node.type !== 'liquidBlock') groupExpandables(node as Parent);
    if (node.type === 'liquidBlock') groupExpandables(node as unknown as Parent);
    if (node.type !== 'html') continue;
    const open = OPEN.exec((node as Html).value.trim());
    if (!open) continue;
    let depth = 1;
    let end = -1;
    for (let j = i + 1; j < kids.length; j++) {
      const k = kids[j]!;
      if (k.type !== 'html') continue;
      const v = (k as Html).value.trim();
      if (OPEN.test(v)) depth++;
      else if (CLOSE.test(v) && --depth === 0) {
        end = j;
        break;
      }
    }
    if (end < 0) continue;
    let body = kids.slice(i + 1, end);
    let summary = open[3] !== undefined ? plain(open[3]) : '';
    if (open[3] === undefined && body[0]?.type === 'html') {
      const s = SUMMARY.exec((body[0] as Html).value.trim());
      if (s) {
        summary = plain(s[1]!);
        body = body.slice(1);
      }
    }
    const block = { type: 'liquidBlock', name: EXPANDABLE, attributes: [{ name: 'summary', value: summary }], selfClosing: false, children: body };
    groupExpandables(block as unknown as Parent);
    kids.splice(i, end - i + 1, block as unknown as RootContent);
  }
}

/** An expandable: `<details>` works without JavaScript. */
export const expandableBlock: BlockRenderer = {
  names: [EXPANDABLE],
  render(node: LiquidBlock, { state }) {
    return el('details', { className: ['expandable'] }, [el('summary', {}, [text(attr(node, 'summary') || 'Details')]), ...state.all(node as never)]);
  },
};
