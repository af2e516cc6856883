import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** Hint callouts: `{% hint style="info" icon="…" %}` … `{% endhint %}`. */
export const hintPlugin: GitbookConstructPlugin = {
  name: 'hint',
  tags: [{ name: 'hint', end: 'required', attributeOrder: ['style', 'icon'], plugin: 'hint' }],
};
