import type { Root, Nodes, Code } from 'mdast';
import type { Style } from '../types.js';

export interface CodeSyntaxData {
  /** The fence the source used when the serializer would write another one (GitBook kept ```` ``` ```` around a ```` ```bash ```` line). */
  fence?: string;
  /** Written as an indented code block (GitBook's 2018 exporter), not fenced. */
  indented?: boolean;
  /** An empty block written with one empty line between its fences (GitBook writes both forms: `` ```\n\n``` `` and `` ```bash\n``` ``). */
  emptyLine?: boolean;
}

/** The fence a serializer writes for `value`: one longer than its longest run of `char`, at least three. */
export function defaultFence(value: string, char: '`' | '~'): string {
  let longest = 0;
  let run = 0;
  for (const c of value) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return char.repeat(Math.max(longest + 1, 3));
}

/** Whether a code block has an indented form (a language, or a value blank or starting or ending with a blank line, has none). */
export function indentable(node: Code): boolean {
  const raw = node.value ?? '';
  return !node.lang && !node.meta && /[^ \r\n]/.test(raw) && !/^[\t ]*(?:[\r\n]|$)|(?:^|[\r\n])[\t ]*$/.test(raw);
}

/** Record, on code blocks, syntax the serializer would not choose: an indented block, or another fence than the file's default one. */
export function recordCodeSyntax(text: string, tree: Root, style: Style): void {
  const walk = (node: Nodes): void => {
    if (node.type === 'code') record(node);
    else if ('children' in node) for (const c of node.children as Nodes[]) walk(c);
  };
  const record = (node: Code): void => {
    const start = node.position?.start.offset;
    if (start === undefined) return;
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(text.slice(start, start + 64));
    if (!m) {
      // An indented block's source starts with its indentation.
      if (/^(?: {4}|\t| {0,3}\t)/.test(text.slice(start, start + 4)) && indentable(node)) ((node.data ??= {}) as CodeSyntaxData).indented = true;
      return;
    }
    const fence = m[1]!;
    if (fence !== defaultFence(node.value, style.fence)) ((node.data ??= {}) as CodeSyntaxData).fence = fence;
    const end = node.position?.end.offset;
    if (node.value === '' && end !== undefined && /^[^\n]*\n[ \t>]*\n[ \t>]*(`{3,}|~{3,})[ \t]*$/.test(text.slice(start, end)))
      ((node.data ??= {}) as CodeSyntaxData).emptyLine = true;
  };
  walk(tree);
}
