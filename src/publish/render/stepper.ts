import { el } from './hast.js';
import type { BlockRenderer, LiquidBlock } from './types.js';

/** `{% stepper %}{% step %}…`: an ordered list of steps. */
export const stepperBlock: BlockRenderer = {
  names: ['stepper'],
  render(node, { state }) {
    const steps = node.children.filter((c) => (c as { type: string }).type === 'liquidBlock') as unknown as LiquidBlock[];
    return el(
      'ol',
      { className: ['stepper'] },
      steps.map((s) => el('li', { className: ['step'] }, state.all(s as never))),
    );
  },
};

export const stepBlock: BlockRenderer = {
  names: ['step'],
  render(node, { state }) {
    return el('div', { className: ['step'] }, state.all(node as never));
  },
};
