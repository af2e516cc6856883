import { el, attr } from './hast.js';
import type { BlockRenderer } from './types.js';

/** `{% columns %}{% column width="50%" %}…`: side by side on wide screens, stacked on narrow ones. */
export const columnsBlock: BlockRenderer = {
  names: ['columns'],
  render(node, { state }) {
    return el('div', { className: ['columns'] }, state.all(node as never));
  },
};

export const columnBlock: BlockRenderer = {
  names: ['column'],
  render(node, { state }) {
    const width = /^(\d{1,3}(?:\.\d+)?)%$/.exec(attr(node, 'width') ?? '');
    const classes = ['column'];
    if (width) classes.push(`w-${Math.min(100, Math.round(Number(width[1]) / 10) * 10)}`);
    const valign = attr(node, 'valign');
    if (valign === 'middle' || valign === 'bottom') classes.push(`valign-${valign}`);
    return el('div', { className: classes }, state.all(node as never));
  },
};
