import type { Handle, State, Info } from 'mdast-util-to-markdown';
import { defaultHandlers } from 'mdast-util-to-markdown';
import type { Code, Parents } from 'mdast';
import { indentable, type CodeSyntaxData } from '../style/code-fences.js';

type H = (node: Code, parent: Parents | undefined, state: State, info: Info) => string;
const base = defaultHandlers.code as unknown as H;

/**
 * Code blocks in the syntax their source used where the serializer would choose another and the
 * recorded one still holds the value: an indented block (a value with a language, or starting or
 * ending with a blank line, has no indented form), another fence (shorter than the default, or the
 * other character) when no line of the value would close it.
 */
export const codeHandler: Handle = (node: Code, parent: Parents | undefined, state: State, info: Info) => {
  const data = (node.data ?? {}) as CodeSyntaxData;
  const raw = node.value ?? '';
  if (data.indented && indentable(node)) {
    const exit = state.enter('codeIndented');
    const value = state.indentLines(raw, (line, _index, blank) => (blank ? '' : '    ') + line);
    exit();
    return value;
  }
  const written = base(node, parent, state, info);
  const out = data.emptyLine && raw === '' ? written.replace('\n', '\n\n') : written;
  const fence = data.fence;
  if (!fence) return out;
  const closes = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`, 'm');
  if (closes.test(raw) || (fence[0] === '`' && /`/.test(`${node.lang ?? ''} ${node.meta ?? ''}`))) return out;
  const current = /^(`{3,}|~{3,})/.exec(out)?.[1];
  if (!current || current === fence || !out.endsWith('\n' + current)) return out;
  return fence + out.slice(current.length, out.length - current.length) + fence;
};
