import { defaultHandlers, type Attention, type Handle } from 'mdast-util-to-markdown';
import { gitbookSpellingAllowed } from './plain-delimiters.js';

type AttentionHandle = Handle & { attention: Attention; peek: Handle };

/**
 * Strong with GitBook's writer's runs: it writes every bold mark as `**` without switching marker, so
 * bold directly around bold (a bold link inside bold text) is `****[**Teams**](team-settings.md)****`
 * where mdast-util-to-markdown alternates (`**__…__**`). Kept only where it re-parses to the same tree.
 */
export function strongHandler(): Handle {
  const base = defaultHandlers.strong as AttentionHandle;
  const handle = ((node, parent, state, info) => base(node, parent, state, info)) as AttentionHandle;
  handle.peek = base.peek;
  handle.attention = (node, state) => {
    const info = base.attention(node, state);
    if (state.stack[state.stack.length - 1] !== 'strong' || !gitbookSpellingAllowed(state)) return info;
    return { ...info, markers: info.markers.slice(0, 1) };
  };
  return handle;
}
