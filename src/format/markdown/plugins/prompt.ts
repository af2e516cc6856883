import type { GitbookConstructPlugin } from '../liquid/registry.js';

/** AI prompt blocks: `{% prompt description=\"…\" icon=\"…\" … %}` + fence + `{% endprompt %}`. */
export const promptPlugin: GitbookConstructPlugin = {
  name: 'prompt',
  tags: [{ name: 'prompt', end: 'required', attributeOrder: ['description', 'icon', 'openInAIProviders', 'defaultExpanded'], plugin: 'prompt' }],
};
