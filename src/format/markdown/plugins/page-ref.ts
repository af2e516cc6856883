import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Legacy page links (2018–2021): `{% page-ref page="../x.md" %}` without end tag. */
export const pageRefPlugin: GitbookConstructPlugin = {
  name: 'page-ref',
  tags: [{ name: 'page-ref', end: 'none', attributeOrder: ['page'], referenceAttributes: ['page'], plugin: 'page-ref' }],
};
