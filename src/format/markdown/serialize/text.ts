import type { Handle, State, Info } from 'mdast-util-to-markdown';
import type { Text } from 'mdast';
import type { Style } from '../types.js';
import { insideInlineHtml, rawSafe, htmlContent, htmlContentAllowed } from './html-context.js';
import { writePlainDelimiters } from './plain-delimiters.js';
import { writeEscapedPunctuation } from '../style/escaped-punctuation.js';

const MARK = '\uE000';
const MARK_REF = '&#xE000;';

/**
 * Text with GitBook's escaping: its exporter escapes every `_` in prose (`eth\_send`), where
 * current mdast-util-to-markdown leaves intra-word underscores alone. The underscore is swapped for
 * a private-use marker that is always unsafe, then written back as `\_`.
 */
export function textHandler(style: Style): Handle {
  return (node: Text, parent, state: State, info: Info) => {
    const value = node.value;
    if (insideInlineHtml(parent as never, node)) {
      if (rawSafe(value)) return value;
      // GitBook's HTML content with literal backslashes, recorded from the source (style/spacing.ts).
      const source = (node.data as { source?: string } | undefined)?.source;
      if (source !== undefined && !(source.includes('|') && state.stack.includes('tableCell')) && htmlContentAllowed(state)) return source;
      // `|` must stay escaped inside a table cell whatever the re-parse of the cell alone says.
      if (!(value.includes('|') && state.stack.includes('tableCell')) && htmlContentAllowed(state)) return htmlContent(value);
    }
    let out: string;
    if (style.escapeUnderscore !== 'always' || !value.includes('_') || value.includes(MARK)) out = state.safe(value, info);
    else out = state.safe(value.replaceAll('_', MARK), info).replaceAll(MARK_REF, '\\_');
    out = writePlainDelimiters(out, node, state);
    if (style.escapeAmpersand === 'reference' && out.includes('\\&')) {
      out = out.replace(/\\&(?!#x?[0-9a-f]+;|#\d+;|[a-z][a-z0-9]*;)/gi, '&');
    }
    if (style.namedEntities) {
      // `\<` / `\>` (escaped) become `&lt;` / `&gt;`; an escaped backslash before them stays.
      out = out.replace(/(\\*)([<>])/g, (m, bs: string, c: string) => {
        const odd = bs.length % 2 === 1;
        if (c === '<' && !odd && !style.ltEntityAlways) return m;
        if (c === '>' && !style.gtEntity) return m;
        return (odd ? bs.slice(1) : bs) + (c === '<' ? '&lt;' : '&gt;');
      });
    }
    if (
      !style.escapeTrailingBackslash &&
      out.endsWith('\\\\') &&
      parent &&
      'children' in parent &&
      parent.children.at(-1) === node &&
      (parent.type === 'paragraph' || parent.type === 'heading')
    ) {
      out = out.slice(0, -1);
    }
    // Punctuation the source wrote escaped where the above writes it plain (style/escaped-punctuation.ts).
    return writeEscapedPunctuation(out, node, state);
  };
}

export const markerUnsafe = { character: MARK, inConstruct: 'phrasing' as const };
