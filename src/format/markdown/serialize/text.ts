import type { Handle, State, Info } from 'mdast-util-to-markdown';
import type { Text } from 'mdast';
import type { Style } from '../types.js';

const MARK = '\uE000';
const MARK_REF = '&#xE000;';

/**
 * Text with GitBook's escaping: its exporter escapes every `_` in prose (`eth\_send`), where
 * current mdast-util-to-markdown leaves intra-word underscores alone. The underscore is swapped for
 * a private-use marker that is always unsafe, then written back as `\_`.
 */
export function textHandler(style: Style): Handle {
  return (node: Text, _parent, state: State, info: Info) => {
    const value = node.value;
    if (style.escapeUnderscore !== 'always' || !value.includes('_') || value.includes(MARK)) return state.safe(value, info);
    return state.safe(value.replaceAll('_', MARK), info).replaceAll(MARK_REF, '\\_');
  };
}

export const markerUnsafe = { character: MARK, inConstruct: 'phrasing' as const };
