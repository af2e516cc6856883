import type { Root, Nodes, Table, TableRow } from 'mdast';

/** Stands for a line break inside a row while the row is parsed again as one line. */
const BREAK = '\uE0F1';

/**
 * GitBook writes a code block inside a table cell as `<pre><code>…</code></pre>` with the code's line
 * breaks as they are (asserts 2023: `| <pre><code>mongodb_op_counters_total⏎</code></pre>   | … |`), and
 * pads the cell to its column's width counting each line break as one character. A parser ends the row
 * at the first line break, so the rest of the cell becomes rows of its own. Rows whose source leaves a
 * `<pre>` open are joined here with the lines that close it: the cell holds the code with its line breaks
 * (as HTML and text, like any cell), and a writer that pads the cell as one string gives GitBook's row back.
 */
export function joinTableCodeRows(tree: Root, text: string, parse: (markdown: string) => Root): void {
  const walk = (node: Nodes): void => {
    // A table indented or inside a quote has its container's prefix on every line: not joined.
    if (node.type === 'table') {
      if (node.position?.start.column === 1) joinRows(node, text, parse);
    } else if ('children' in node) for (const c of node.children as Nodes[]) walk(c);
  };
  walk(tree);
}

function openPre(line: string): number {
  return (line.match(/<pre[\s>]/g)?.length ?? 0) - (line.match(/<\/pre>/g)?.length ?? 0);
}

function joinRows(table: Table, text: string, parse: (markdown: string) => Root): void {
  const rows = table.children;
  for (let r = 1; r < rows.length; r++) {
    const start = rows[r]!.position?.start.offset;
    const end = rows[r]!.position?.end.offset;
    if (start === undefined || end === undefined || text.slice(start, end).includes('\n')) continue;
    let open = openPre(text.slice(start, end));
    if (open <= 0) continue;
    let last = r;
    while (open > 0 && last + 1 < rows.length) open += openPre(sourceOf(rows[++last]!, text) ?? '');
    if (open !== 0) return;
    const joined = parseRow(text.slice(start, rows[last]!.position!.end.offset), table, parse);
    if (!joined) continue;
    rows.splice(r, last - r + 1, joined);
  }
}

function sourceOf(row: TableRow, text: string): string | null {
  const p = row.position;
  return p?.start.offset === undefined || p.end.offset === undefined ? null : text.slice(p.start.offset, p.end.offset);
}

/** The row written on the lines of `source`, parsed as one line in a table of as many columns; null when it does not read as one row. */
function parseRow(source: string, table: Table, parse: (markdown: string) => Root): TableRow | null {
  if (source.includes(BREAK)) return null;
  const columns = table.children[0]?.children.length ?? 1;
  const head = `|${' a |'.repeat(columns)}\n|${' --- |'.repeat(columns)}\n`;
  const markdown = head + source.replaceAll('\n', BREAK);
  const parsed = parse(markdown).children[0];
  if (parsed?.type !== 'table' || parsed.children.length !== 2) return null;
  const row = parsed.children[1]!;
  for (const cell of row.children) cell.children = codeAsHtml(cell.children, markdown);
  const restore = (node: Nodes): void => {
    delete node.position;
    if ('value' in node && typeof node.value === 'string') node.value = node.value.replaceAll(BREAK, '\n');
    if ('children' in node) for (const c of node.children as Nodes[]) restore(c);
  };
  restore(row);
  return row;
}

/**
 * A cell's `<pre>…</pre>` as one HTML node holding its source (the code's line breaks and GitBook's
 * character references as written): the text between the tags is code, not Markdown to escape.
 */
function codeAsHtml(children: TableRow['children'][number]['children'], markdown: string): TableRow['children'][number]['children'] {
  const out: typeof children = [];
  for (let i = 0; i < children.length; i++) {
    const first = children[i]!;
    const end =
      first.type === 'html' && /^<pre[\s>]/.test(first.value) ? children.findIndex((c, j) => j >= i && c.type === 'html' && c.value.includes('</pre>')) : -1;
    const from = first.position?.start.offset;
    const to = end >= 0 ? children[end]!.position?.end.offset : undefined;
    if (from === undefined || to === undefined) {
      out.push(first);
      continue;
    }
    out.push({ type: 'html', value: markdown.slice(from, to) });
    i = end;
  }
  return out;
}
