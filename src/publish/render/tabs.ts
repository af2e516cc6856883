import type { ElementContent } from 'hast';
import { el, attr, text } from './hast.js';
import type { BlockRenderer, LiquidBlock } from './types.js';

/**
 * `{% tabs %}{% tab title %}…` (and the legacy `code-tabs`): tabs that work without JavaScript: a radio
 * button per tab and CSS showing the checked one's panel; without CSS every panel is shown under its title.
 */
export const tabsBlock: BlockRenderer = {
  names: ['tabs', 'code-tabs'],
  render(node, { state, nextId }) {
    const group = nextId('tabs');
    const tabs = node.children.filter((c): c is never => (c as { type: string }).type === 'liquidBlock') as unknown as LiquidBlock[];
    const out: ElementContent[] = [];
    tabs.forEach((tab, i) => {
      const id = `${group}-${i}`;
      out.push(el('input', { type: 'radio', name: group, id, className: ['tab-input'], checked: i === 0 }));
      out.push(el('label', { htmlFor: [id], className: ['tab-label'] }, [text(attr(tab, 'title') ?? `Tab ${i + 1}`)]));
      out.push(el('div', { className: ['tab-panel'] }, state.all(tab as never)));
    });
    return el('div', { className: ['tabs'] }, out);
  },
};

/** A `tab` outside `tabs` (malformed input): its content, kept. */
export const tabBlock: BlockRenderer = {
  names: ['tab', 'code-tabs-item'],
  render(node, { state }) {
    return el('div', { className: ['tab-panel'] }, state.all(node as never));
  },
};
