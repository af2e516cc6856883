import type { Element } from 'hast';
import { select } from 'hast-util-select';
import { navFromCaptionedLists } from './nav-list.js';
import type { GeneratorExtractor } from './types.js';

/**
 * Sphinx (alabaster, classic, … : `div.body[role=main]`, the toctree in `.sphinxsidebarwrapper`) and the Read the
 * Docs theme (`div[itemprop=articleBody]`, the toctree in `.wy-menu-vertical`): captions (`p.caption`) then lists.
 */
export const sphinxExtractor: GeneratorExtractor = {
  generator: 'sphinx',
  detect(tree) {
    const generator = select('meta[name="generator"]', tree)?.properties.content;
    if (typeof generator === 'string' && /^sphinx/i.test(generator)) return true;
    return select('script#documentation_options, script[src$="_static/doctools.js"], div.sphinxsidebar', tree) !== undefined;
  },
  main(tree) {
    return (select('[itemprop="articleBody"]', tree) ?? select('div.body[role="main"]', tree) ?? select('div.body', tree) ?? null) as Element | null;
  },
  chrome: ['a.headerlink', '.rst-footer-buttons', 'div.related', '.wy-breadcrumbs', 'a.viewcode-link', 'button.copybtn', '.edit-this-page'],
  nav(tree, pageUrl) {
    const container = select('.wy-menu-vertical', tree) ?? select('.sphinxsidebarwrapper', tree);
    if (!container) return [];
    const isCaption = (e: Element): boolean => e.tagName === 'p' && /caption/.test(String(e.properties.className ?? ''));
    return navFromCaptionedLists(container, pageUrl, isCaption);
  },
  titleSeparators: [' — ', ' &#8212; ', ' - '],
};
