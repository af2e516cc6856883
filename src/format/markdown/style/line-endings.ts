import type { Root, Nodes } from 'mdast';

/**
 * GitBook writes carriage returns inside a text as they are (a pasted `\r` before a paragraph, a list
 * item line ending `\r\n` in a file of `\n`): CommonMark reads each as a line ending, so the tree does
 * not keep them. A file mixing line endings records the ones that are not `\n`, by line, and a
 * serialization with the same number of lines gets them back (a page whose lines changed keeps `\n`).
 */
export interface MixedLineEndings {
  /** Number of lines of the file (line endings + 1). */
  lines: number;
  /** `[line index, ending]` for each line ended by `\r` or `\r\n`. */
  endings: Array<[number, '\r' | '\r\n']>;
}

const ENDING = /\r\n|\r|\n/g;

/**
 * A code block's value with its line endings as `\n`: a parser keeps them as written in a file mixing
 * them (`Upgrade-Insecure-Requests: 1\r` before an empty last line ending `\r\n`), and a `\r` written
 * back before the serializer's own `\n` would read as one ending fewer. The endings are recorded by line.
 */
export function normalizeCodeLineEndings(tree: Root): void {
  const walk = (node: Nodes): void => {
    if (node.type === 'code' && node.value.includes('\r')) node.value = node.value.replace(ENDING, '\n');
    else if ('children' in node) for (const c of node.children as Nodes[]) walk(c);
  };
  walk(tree);
}

/** The non-`\n` line endings of `text`, or null when it has none. */
export function recordLineEndings(text: string): MixedLineEndings | null {
  if (!text.includes('\r')) return null;
  const endings: MixedLineEndings['endings'] = [];
  let line = 0;
  for (const m of text.matchAll(ENDING)) {
    if (m[0] !== '\n') endings.push([line, m[0] as '\r' | '\r\n']);
    line++;
  }
  return { lines: line + 1, endings };
}

/** `out` (written with `\n`) with the recorded line endings, when it has as many lines as the source. */
export function applyLineEndings(out: string, mixed: MixedLineEndings): string {
  const parts = out.split(ENDING);
  if (parts.length !== mixed.lines) return out;
  const endings = new Map(mixed.endings);
  let res = parts[0]!;
  for (let i = 1; i < parts.length; i++) res += (endings.get(i - 1) ?? '\n') + parts[i]!;
  return res;
}
