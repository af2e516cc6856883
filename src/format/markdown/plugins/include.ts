import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Reusable content: `{% include \"../.gitbook/includes/x.md\" %}` (positional path, no end tag). */
export const includePlugin: GitbookConstructPlugin = {
  name: 'include',
  tags: [{ name: 'include', end: 'none', referenceAttributes: [null], plugin: 'include' }],
};
