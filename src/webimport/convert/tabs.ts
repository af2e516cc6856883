import type { Element } from 'hast';
import type { State } from 'hast-util-to-mdast';
import { matches, select, selectAll } from 'hast-util-select';
import type { BlockContent, DefinitionContent } from 'mdast';
import { classNames } from '../extract/index.js';
import type { HtmlConstruct } from './construct.js';
import { liquidBlock } from './liquid.js';
import { plainText } from './text.js';

const TAB_SETS = 'div.tabs-container, div.tabbed-set, div.sd-tab-set, div.sphinx-tabs, div.tabs';

interface Tab {
  title: string;
  panel: Element;
}

/** The tabs of a tab set as (label, panel) pairs, for Docusaurus, Material/pymdownx, sphinx-design and sphinx-tabs. */
export function tabsOf(element: Element): Tab[] {
  const children = element.children.filter((c): c is Element => c.type === 'element');
  // Docusaurus: ul[role=tablist] > li[role=tab], then a div of div[role=tabpanel]; sphinx-tabs: div[role=tablist] > button.
  const tablist = select('[role="tablist"]', element);
  if (tablist) {
    const labels = selectAll('[role="tab"]', tablist);
    const panels = selectAll('[role="tabpanel"]', element).filter((p) => !isNested(p, element));
    if (labels.length > 0 && labels.length === panels.length) return labels.map((label, i) => ({ title: plainText(label), panel: panels[i]! }));
  }
  // pymdownx (new style): .tabbed-labels > label, .tabbed-content > .tabbed-block.
  const labelBox = children.find((c) => classNames(c).includes('tabbed-labels'));
  const contentBox = children.find((c) => classNames(c).includes('tabbed-content'));
  if (labelBox && contentBox) {
    const labels = labelBox.children.filter((c): c is Element => c.type === 'element' && c.tagName === 'label');
    const panels = contentBox.children.filter((c): c is Element => c.type === 'element');
    if (labels.length === panels.length) return labels.map((label, i) => ({ title: plainText(label), panel: panels[i]! }));
  }
  // pymdownx (old style) and sphinx-design: input, label, content in a row.
  const tabs: Tab[] = [];
  let title: string | null = null;
  for (const child of children) {
    if (child.tagName === 'label') title = plainText(child);
    else if (title !== null && (classNames(child).includes('tabbed-content') || classNames(child).includes('sd-tab-content'))) {
      tabs.push({ title, panel: child });
      title = null;
    }
  }
  return tabs;
}

function isNested(panel: Element, set: Element): boolean {
  return selectAll(TAB_SETS, set).some((inner) => inner !== set && selectAll('[role="tabpanel"]', inner).includes(panel));
}

/** Tabbed content (often tabbed code) → `{% tabs %}` with one `{% tab title="…" %}` per tab. */
export const tabsConstruct: HtmlConstruct = {
  name: 'tabs',
  tagNames: ['div'],
  matches: (element) => matches(TAB_SETS, element) && tabsOf(element).length > 0,
  toMdast(state: State, element) {
    const tabs = tabsOf(element).map((tab) => {
      const body = state.toFlow(state.all(tab.panel)) as (BlockContent | DefinitionContent)[];
      return liquidBlock('tab', { title: tab.title }, body.length > 0 ? body : [{ type: 'paragraph', children: [] }]);
    });
    return liquidBlock('tabs', {}, tabs as never) as never;
  },
};
