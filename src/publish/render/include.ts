import type { Root } from 'mdast';
import { parsePageFile } from '../../format/index.js';
import { positional } from './hast.js';
import type { BlockRenderer } from './types.js';

/**
 * Reusable content: `{% include "../.gitbook/includes/x.md" %}` is replaced by the included file's content,
 * rendered as part of the page (its front matter dropped). The publish build gives the renderer the text of each
 * include a page names (`RenderPageInput.includes`, by the path as written); one the space does not hold is a
 * `PUBLISH_INCLUDE_MISSING` warning and renders nothing. GitBook does not nest reusable content: an include inside
 * an included file is reported the same way.
 */
export function includeBlock(includes: Record<string, string>, prepare: (tree: Root) => void): BlockRenderer {
  let depth = 0;
  return {
    names: ['include'],
    render(node, { state, links }) {
      const path = positional(node) ?? '';
      const markdown = Object.hasOwn(includes, path) ? includes[path] : undefined;
      if (markdown === undefined || depth > 0) {
        links.warn('PUBLISH_INCLUDE_MISSING', `${depth > 0 ? 'nested include not expanded' : 'reusable content not found'}: ${path.slice(0, 200)}`);
        return [];
      }
      const tree = parsePageFile(markdown, { style: false }).document as Root;
      prepare(tree);
      depth++;
      try {
        return state.all(tree as never);
      } finally {
        depth--;
      }
    },
  };
}
