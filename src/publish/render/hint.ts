import { el, attr, text } from './hast.js';
import type { BlockRenderer } from './types.js';

const LABELS: Record<string, string> = { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger', tip: 'Tip' };

/** `{% hint style="info|success|warning|danger" %}`: a labelled aside. */
export const hintBlock: BlockRenderer = {
  names: ['hint'],
  render(node, { state }) {
    const style = attr(node, 'style') ?? 'info';
    const known = LABELS[style] ? style : 'info';
    return el('aside', { className: ['hint', `hint-${known}`], ariaLabel: LABELS[known] }, [
      el('p', { className: ['hint-label'] }, [text(LABELS[known]!)]),
      ...state.all(node as never),
    ]);
  },
};
