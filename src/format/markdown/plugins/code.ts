import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Code block options: `{% code title="…" overflow="wrap" lineNumbers="true" fullWidth="false" expandable="true" %}` around a fence. */
export const codePlugin: GitbookConstructPlugin = {
  name: 'code',
  tags: [{ name: 'code', end: 'required', attributeOrder: ['title', 'overflow', 'lineNumbers', 'fullWidth', 'expandable'], plugin: 'code' }],
};
