import type { Nodes } from 'mdast';
import type { State } from 'mdast-util-to-markdown';
import { verifiedCandidate } from './verified-candidate.js';

const VOID = new Set(['br', 'img', 'hr', 'input', 'source', 'wbr', 'col', 'area', 'embed', 'meta', 'link']);

/**
 * Elements GitBook writes for a text mark (a colour, a key): their content is prose, escaped as such
 * (`<mark>deposit\_params</mark>`, `<kbd>aquatone\_report.html</kbd>`).
 */
const FORMATTING = new Set(['mark', 'kbd']);

/**
 * Whether `node` sits inside an inline HTML element opened by an earlier sibling
 * (`<code>sql_identifier</code>` in a table cell). GitBook writes such text as HTML content,
 * without Markdown escapes.
 */
export function insideInlineHtml(parent: Nodes | undefined, node: Nodes): boolean {
  if (!parent || !('children' in parent)) return false;
  let depth = 0;
  for (const sib of parent.children as Nodes[]) {
    if (sib === node) break;
    if (sib.type !== 'html') continue;
    for (const m of sib.value.matchAll(/<(\/?)([A-Za-z][\w-]*)[^>]*?(\/?)>/g)) {
      const name = m[2]!.toLowerCase();
      if (VOID.has(name) || FORMATTING.has(name) || m[3] === '/') continue;
      depth += m[1] ? -1 : 1;
      if (depth < 0) depth = 0;
    }
  }
  return depth > 0;
}

/** Text that re-parses to itself when written without escapes inside inline HTML. */
export function rawSafe(value: string): boolean {
  if (/[*`<>&\\!|{}$]/.test(value) || /\]\s*[([:]/.test(value) || /\n/.test(value)) return false;
  // `_` only between letters/digits (cannot open or close emphasis).
  for (let i = value.indexOf('_'); i >= 0; i = value.indexOf('_', i + 1)) {
    if (!/[\p{L}\p{N}]/u.test(value[i - 1] ?? '') || !/[\p{L}\p{N}_]/u.test(value[i + 1] ?? '')) return false;
  }
  return true;
}

/**
 * Text inside inline HTML that is not {@link rawSafe}: GitBook writes it as HTML content — `<` as
 * `&#x3C;`, `&` as `&#x26;`, everything else (`*`, `[`, `\``…) as is. That form is only a candidate:
 * {@link verifyHtmlContent} keeps it only when the enclosing phrasing re-parses to the same tree.
 */
export function htmlContent(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
}

const candidate = verifiedCandidate('htmlContent');

/** Whether the text handler may write HTML content (and records that it did). */
export const htmlContentAllowed = (state: State): boolean => candidate.allowed(state);

/**
 * Run a phrasing serializer with HTML-content text allowed; when that was used and the result does
 * not re-parse (`tree`) like the fully escaped serialization, the escaped one wins.
 */
export const verifyHtmlContent = (state: State, tree: (markdown: string) => string, run: () => string): string => candidate.verify(state, tree, run);
