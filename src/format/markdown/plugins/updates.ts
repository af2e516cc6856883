import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Changelog updates: `{% updates format="full" %}` / `{% update date="…" tags="…" %}`. */
export const updatesPlugin: GitbookConstructPlugin = {
  name: 'updates',
  tags: [
    { name: 'updates', end: 'required', attributeOrder: ['format'], plugin: 'updates' },
    { name: 'update', end: 'required', attributeOrder: ['date', 'tags'], plugin: 'updates' },
  ],
};
