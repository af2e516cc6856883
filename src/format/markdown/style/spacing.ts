import type { Root, Nodes, Parent } from 'mdast';
import { insideInlineHtml } from '../serialize/html-context.js';

const FLOW_PARENTS = new Set(['root', 'blockquote', 'list', 'listItem', 'liquidBlock', 'footnoteDefinition']);
/** Flow nodes whose handlers write the whitespace-holding blank lines recorded before them (serialize/handlers.ts). */
export const BLANK_LINES_KEPT = new Set(['paragraph', 'heading', 'html', 'list', 'listItem', 'code', 'table', 'blockquote', 'liquidBlock', 'thematicBreak']);

/**
 * Record, on every flow node, the number of blank lines before it when that is not the single
 * blank line the serializer writes by default (legacy files have double blank lines; GitBook
 * writes none between `{% tabs %}` and `{% tab %}`; hand-written files vary).
 */
export function recordSpacing(tree: Root, text: string): void {
  const walk = (node: Nodes): void => {
    if ((node.type === 'link' || node.type === 'image') && node.position?.end.offset !== undefined) {
      // Destination written in `<…>` although not required (or bare although the default would bracket it).
      const src = text.slice(node.position.start.offset!, node.position.end.offset);
      // A link's destination follows its text: an image inside that text has a `](` of its own (`[![](<a b.png>)](https://…)`).
      const labelEnd = node.type === 'link' ? (node.children.at(-1)?.position?.end.offset ?? node.position.start.offset!) - node.position.start.offset! : 0;
      const m = /\]\(\s*(<)?[^]*\)$/.exec(src.slice(labelEnd));
      if (m) {
        const angle = m[1] === '<';
        const byDefault = /[\0- \u007F]/.test(node.url) || (!node.url && !!node.title);
        if (angle !== byDefault) ((node.data ??= {}) as Record<string, unknown>).angle = angle;
        // A bare destination written with character references (`Lamph&aring;llare`): kept as written while the URL is the same.
        const raw = /^\]\(([^\s<>()\\]+)\)$/.exec(m[0])?.[1];
        if (raw && /&(?:#x?[0-9a-f]+|[a-z][a-z0-9]*);/i.test(raw))
          Object.assign((node.data ??= {}) as Record<string, unknown>, { rawDestination: raw, rawDestinationOf: node.url });
      }
      // An autolink (`<https://…>`), which GitBook keeps as written: the serializer's default is `[url](url)`.
      if (node.type === 'link' && src.startsWith('<') && src.endsWith('>')) ((node.data ??= {}) as Record<string, unknown>).autolink = true;
    }
    if (!('children' in node)) return;
    const parent = node as Parent;
    if (FLOW_PARENTS.has(node.type)) {
      for (let i = 1; i < parent.children.length; i++) {
        const left = parent.children[i - 1]!;
        const right = parent.children[i]!;
        if (!left.position || !right.position) continue;
        const blank = right.position.start.line - endLine(left, text) - 1;
        if (blank > 0 && BLANK_LINES_KEPT.has(right.type) && left.position.end.offset !== undefined && right.position.start.offset !== undefined) {
          const lines = whitespaceLines(text, left.position.end.offset, right.position.start.offset, blank, node.type === 'root');
          if (lines) {
            (right.data ??= {}) as Record<string, unknown>;
            Object.assign(right.data as Record<string, unknown>, { blankBefore: 0, blankLines: lines });
            continue;
          }
        }
        if (node.type === 'list') {
          // Items of a loose list are written one blank line apart, of a tight list none; a list
          // mixing both (legacy exports) keeps each item's own spacing.
          if (blank === ((node as { spread?: boolean | null }).spread ? 1 : 0)) continue;
        } else if (node.type === 'listItem') {
          const spread = (node as { spread?: boolean | null }).spread;
          if ((spread && blank === 1) || (!spread && blank === 0)) continue;
        } else if (blank === 1) continue;
        (right.data ??= {}) as Record<string, unknown>;
        (right.data as Record<string, unknown>).blankBefore = blank;
      }
    }
    for (const c of parent.children) {
      if ((c.type === 'paragraph' || c.type === 'heading') && c.position?.end.offset !== undefined) {
        const src = text.slice(c.position.start.offset!, c.position.end.offset);
        const m =
          /^[ \t]+(?=\n|$)/.exec(text.slice(c.position.end.offset, c.position.end.offset + 64)) ??
          (c.type === 'heading' ? /[ \t]+$/.exec(src) : /(?<!\\)[ \t]+$/.exec(src));
        if (m && !(c.type === 'paragraph' && c.children.at(-1)?.type === 'break')) ((c.data ??= {}) as Record<string, unknown>).trailingWhitespace = m[0];
        // An ATX heading whose text GitBook's exporter wrote after more than one space (`####  \`too many contigs\``).
        const gap = c.type === 'heading' ? /^#{1,6}([ \t]{2,})(?=\S)/.exec(src) : null;
        if (gap) ((c.data ??= {}) as Record<string, unknown>).markerGap = gap[1];
        // A paragraph written 1–3 columns right of its container's text (the top level, a Liquid block, a list item after its first block).
        const base = contentColumn(node, c);
        const extra = base === null ? 0 : c.position.start.column - base;
        if (extra >= 1 && extra <= 3) ((c.data ??= {}) as Record<string, unknown>).indent = ' '.repeat(extra);
      }
      // A thematic break written 1–3 columns right of its container's text (` ****`, GitBook's empty bold after a space).
      if (c.type === 'thematicBreak' && c.position) {
        const base = contentColumn(node, c);
        const extra = base === null ? 0 : c.position.start.column - base;
        if (extra >= 1 && extra <= 3) ((c.data ??= {}) as Record<string, unknown>).indent = ' '.repeat(extra);
      }
      // A top-level list written indented (`  - Next State` after an ordered item it is not nested in): every item at that column.
      if (c.type === 'list' && node.type === 'root' && c.position && c.position.start.column > 1 && c.position.start.column <= 4) {
        const column = c.position.start.column;
        if (c.children.every((item) => item.position?.start.column === column)) ((c.data ??= {}) as Record<string, unknown>).indent = ' '.repeat(column - 1);
      }
      walk(c as Nodes);
    }
  };
  walk(tree);
  recordHtmlContent(tree, text);
}

/** Marks a blank line written whole, whatever its containers prefix it with (removed by `restoreWhitespaceLines`). */
export const WHOLE_LINE = '\uE0F0';

/**
 * Blank lines holding spaces between two blocks (`  `, hand-edited legacy files; GitBook 2020 keeps them in a
 * hint, between the items of a list and between an item's blocks, `  ` at the item's indent): written back as
 * they are. Inside a container each is marked to be written whole, since the container would prefix it.
 */
function whitespaceLines(text: string, from: number, to: number, blank: number, top: boolean): string[] | null {
  const lines = text.slice(from, to).split('\n').slice(1, -1);
  if (lines.length !== blank || !lines.some((l) => l !== '') || !lines.every((l) => /^[ \t]*$/.test(l))) return null;
  if (top) return lines;
  return text.includes(WHOLE_LINE) ? null : lines.map((l) => WHOLE_LINE + l);
}

/** Whitespace-holding blank lines marked `WHOLE_LINE` lose what their containers wrote before them. */
export function restoreWhitespaceLines(out: string): string {
  return out.includes(WHOLE_LINE) ? out.replace(/^[^\n\uE0F0]*\uE0F0/gm, '') : out;
}

/**
 * The column a container's blocks start at: 1 at the top level, a Liquid block's own, in a list item the
 * leftmost of its blocks after the first (an item's own indentation of them is recorded as its content indent).
 */
function contentColumn(container: Nodes, child: Nodes): number | null {
  if (container.type === 'root') return 1;
  if (container.type === 'liquidBlock') return container.position?.start.column ?? null;
  if (container.type !== 'listItem' || container.children[0] === child) return null;
  const columns = container.children.slice(1).map((c) => c.position?.start.column ?? Infinity);
  return Number.isFinite(Math.min(...columns)) ? Math.min(...columns) : null;
}

/**
 * Text inside an inline HTML element (`<p>…</p>` in a table cell) as GitBook wrote it: HTML content with
 * its backslashes literal (`\\Users\\{your User name}\\…\\&#x3C;version>`), which a parser reads as
 * Markdown escapes. The source is kept as `data.source`; the text handler writes it back while it still
 * reads as the node's text (verified by re-parsing, like any HTML-content candidate).
 */
function recordHtmlContent(tree: Root, text: string): void {
  const walk = (node: Nodes): void => {
    if (!('children' in node)) return;
    const kids = node.children as Nodes[];
    const html = kids.some((c) => c.type === 'html');
    for (const c of kids) {
      if (html && c.type === 'text' && c.position?.end.offset !== undefined && insideInlineHtml(node, c)) {
        const src = text.slice(c.position.start.offset!, c.position.end.offset);
        if (src !== c.value && src.includes('\\') && !src.includes('\n')) ((c.data ??= {}) as Record<string, unknown>).source = src;
      }
      walk(c);
    }
  };
  walk(tree);
}

/**
 * GitBook writes the text after a hard break as it is, so a leaf starting with spaces (an image its
 * 2021 exporter placed after `dropdown. \\`) gives a line indented further than its paragraph
 * (` ![](…)` at the top level, `    ![](…)` in a numbered item whose content sits at three, while
 * the item's other lines stay at three). A parser drops those spaces: each break whose next line
 * starts 1–3 columns right of its paragraph records them as `data.spacesAfter`, written back by the
 * break handler. A break of more than two trailing spaces (the 2020 exporter after text ending in a
 * space: `you use   `) records their count as `data.spacesBefore`.
 */
export function recordBreakSpaces(tree: Root, text: string): void {
  const walk = (node: Nodes, parent: Nodes | null): void => {
    if (node.type === 'paragraph' && node.position) {
      const base = parent?.type === 'root' ? 1 : node.position.start.column;
      node.children.forEach((b, i) => {
        const next = node.children[i + 1];
        const spaces = b.type === 'break' && b.position ? /^ +(?=\r?\n)/.exec(text.slice(b.position.start.offset, b.position.end.offset)) : null;
        if (spaces && spaces[0].length > 2) ((b.data ??= {}) as Record<string, unknown>).spacesBefore = spaces[0].length;
        if (b.type !== 'break' || !next?.position || !b.position || next.position.start.line === b.position.start.line) return;
        const extra = next.position.start.column - base;
        if (extra >= 1 && extra <= 3) ((b.data ??= {}) as Record<string, unknown>).spacesAfter = extra;
      });
    } else if (node.type === 'break' && node.position && parent?.type !== 'paragraph') {
      // A break inside link text or emphasis (`launched.[    ⏎](…)`): its trailing spaces only.
      const spaces = /^ +(?=\r?\n)/.exec(text.slice(node.position.start.offset, node.position.end.offset));
      if (spaces && spaces[0].length > 2) ((node.data ??= {}) as Record<string, unknown>).spacesBefore = spaces[0].length;
    }
    if ('children' in node) for (const c of node.children as Nodes[]) walk(c, node);
  };
  walk(tree, null);
}

/**
 * A blockquote GitBook closed with empty `>` lines (an empty paragraph left at its end, a hard break
 * before its end) keeps them: `data.emptyLinesAfter` is their count, written back by the serializer.
 */
export function recordQuoteEnds(tree: Root, text: string): void {
  const walk = (node: Nodes): void => {
    // An empty line ending an unclosed code block is its content, not the quote's.
    if (node.type === 'blockquote' && node.position?.end.offset !== undefined && node.children.length > 0 && node.children.at(-1)!.type !== 'code') {
      const lines = text.slice(node.position.start.offset!, node.position.end.offset).split('\n');
      let n = 0;
      for (let i = lines.length - 1; i > 0 && /^[ \t]*>[ \t]*$/.test(lines[i]!); i--) n++;
      if (n > 0) ((node.data ??= {}) as Record<string, unknown>).emptyLinesAfter = n;
    }
    if ('children' in node) for (const c of node.children as Nodes[]) walk(c);
  };
  walk(tree);
}

/**
 * Last line of a flow node. Inside a blockquote a list's position runs over the following
 * blank `>` line(s): those are separating blank lines, not part of the list.
 */
function endLine(node: Nodes, text: string): number {
  const end = node.position!.end;
  if (node.type !== 'list' || end.offset === undefined) return end.line;
  const src = text.slice(node.position!.start.offset!, end.offset);
  const m = /(?:\n[ \t>]*)+$/.exec(src);
  return m ? end.line - (m[0].match(/\n/g)?.length ?? 0) : end.line;
}
