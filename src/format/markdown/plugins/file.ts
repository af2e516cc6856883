import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** File downloads: `{% file src="…" %}` with optional caption body / legacy `caption=`. */
export const filePlugin: GitbookConstructPlugin = {
  name: 'file',
  tags: [{ name: 'file', end: 'optional', attributeOrder: ['src', 'caption'], referenceAttributes: ['src'], plugin: 'file' }],
};
