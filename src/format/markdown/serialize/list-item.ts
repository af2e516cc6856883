import type { Handle, State, Info } from 'mdast-util-to-markdown';
import type { ListItem, Parents } from 'mdast';
import type { Style } from '../types.js';
import { ruleMarkerWidth } from '../style/list-markers.js';

/** List items with GitBook's marker-width rule and per-item overrides recorded in the model. */
export function listItemHandler(style: Style): Handle {
  const item = itemHandler(style);
  return (node: ListItem, parent: Parents | undefined, state: State, info: Info) => {
    const value = item(node, parent, state, info);
    // An item GitBook wrote right of its list's marker column keeps that indentation (style/list-markers.ts).
    const indent = (node.data as { itemIndent?: string } | undefined)?.itemIndent;
    return indent ? value.replace(/^(?=.)/gm, indent) : value;
  };
}

function itemHandler(style: Style) {
  return (node: ListItem, parent: Parents | undefined, state: State, info: Info): string => {
    const data = (node.data ?? {}) as { markerWidth?: number; number?: string; contentIndent?: number; listOnMarkerLine?: boolean };
    const listData = (parent?.data ?? {}) as { marker?: string };
    let bullet = state.bulletCurrent ?? style.bullet;
    // A list written with another marker than the file's usual one keeps it (unless the list
    // handler had to switch markers to keep adjacent lists apart).
    if (parent?.type === 'list' && !parent.ordered && listData.marker && bullet === style.bullet) bullet = listData.marker;
    if (parent && parent.type === 'list' && parent.ordered) {
      const delim = listData.marker ?? state.options.bulletOrdered ?? '.';
      const n =
        data.number ??
        String(
          (typeof parent.start === 'number' && parent.start > -1 ? parent.start : 1) +
            (state.options.incrementListMarker === false ? 0 : parent.children.indexOf(node)),
        );
      bullet = n + delim;
    }
    const size = data.markerWidth ?? ruleMarkerWidth(style, bullet.length, node);
    const tracker = state.createTracker(info);
    tracker.move(bullet + ' '.repeat(size - bullet.length));
    if (typeof node.checked === 'boolean') tracker.move('[x] ');
    tracker.shift(size);
    const exit = state.enter('listItem');
    // An item that starts with a list: GitBook writes its marker alone and the list on the next line (`*` / `  * a`),
    // its 2020 exporter on the marker's line (`* - a`), recorded at parse.
    const alone = node.children[0]?.type === 'list' && typeof node.checked !== 'boolean' && !data.listOnMarkerLine;
    const value = state.indentLines(state.containerFlow(node, tracker.current()), (line, index, blank) => {
      if (index || alone) return (index === 0 ? bullet + '\n' : '') + (blank ? '' : ' '.repeat(data.contentIndent ?? size)) + line;
      return (blank ? bullet : bullet + ' '.repeat(size - bullet.length)) + line;
    });
    exit();
    if (typeof node.checked === 'boolean') {
      const head = `[${node.checked ? 'x' : ' '}] `;
      return value.replace(/^(?:[*+-]|\d+[.)])(?:[\r\n]| +)/, (m) => m + head);
    }
    return value;
  };
}
