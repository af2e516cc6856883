import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Tabs: `{% tabs %}` / `{% tab title="…" icon="…" %}` and the 2019 `{% code-tabs %}` / `{% code-tabs-item %}` forms. */
export const tabsPlugin: GitbookConstructPlugin = {
  name: 'tabs',
  tags: [
    { name: 'tabs', end: 'required', plugin: 'tabs' },
    { name: 'tab', end: 'required', attributeOrder: ['title', 'icon'], plugin: 'tabs' },
    { name: 'code-tabs', end: 'required', plugin: 'tabs' },
    { name: 'code-tabs-item', end: 'required', attributeOrder: ['title'], plugin: 'tabs' },
  ],
};
