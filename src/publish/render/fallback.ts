import { el } from './hast.js';
import type { BlockRenderer } from './types.js';

/**
 * Blocks whose content is shown as is: conditional content (`if`: no visitor context, so it shows), update
 * entries, prompts, integration blocks and the legacy API-method families. Their children are rendered; the
 * block itself becomes a labelled division.
 */
export const containerBlock: BlockRenderer = {
  names: ['if', 'updates', 'update', 'prompt', 'integration', 'swagger-description', 'swagger-parameter', 'swagger-response', 'api-method'],
  render(node, { state }) {
    return el('div', { className: ['block', `block-${node.name.replace(/[^\w-]/g, '')}`] }, state.all(node as never));
  },
};
