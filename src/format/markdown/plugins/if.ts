import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Conditional content: `{% if expression %}` … `{% endif %}` (raw expression kept as one positional argument). */
export const ifPlugin: GitbookConstructPlugin = {
  name: 'if',
  tags: [
    { name: 'if', end: 'required', plugin: 'if' },
    { name: 'elsif', end: 'none', plugin: 'if' },
    { name: 'else', end: 'none', plugin: 'if' },
  ],
};
