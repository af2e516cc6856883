import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Embeds: `{% embed url="…" %}` with optional caption body and `{% endembed %}`; legacy `caption=` / `data=` attributes. */
export const embedPlugin: GitbookConstructPlugin = {
  name: 'embed',
  tags: [{ name: 'embed', end: 'optional', attributeOrder: ['url', 'fullWidth', 'caption'], referenceAttributes: ['url'], plugin: 'embed' }],
};
