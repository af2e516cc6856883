import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Page links: `{% content-ref url="…" %}` + link + `{% endcontent-ref %}`. */
export const contentRefPlugin: GitbookConstructPlugin = {
  name: 'content-ref',
  tags: [{ name: 'content-ref', end: 'required', attributeOrder: ['url'], referenceAttributes: ['url'], plugin: 'content-ref' }],
};
