import type { GitbookConstructPlugin } from '../liquid/registry.js';

/**
 * Integration blocks `{% @integration/block prop="…" %}`: any `@owner/name` tag is accepted by the
 * registry (see `LiquidRegistry.integrationBlocks`), with an optional end tag.
 */
export const integrationBlockPlugin: GitbookConstructPlugin = { name: 'integration-block', tags: [] };
