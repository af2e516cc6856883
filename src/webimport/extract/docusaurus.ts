import type { Element } from 'hast';
import { select } from 'hast-util-select';
import { navFromList } from './nav-list.js';
import type { GeneratorExtractor } from './types.js';

/**
 * Docusaurus 2–3: `.theme-doc-markdown` in the doc's `article`, the sidebar `ul.theme-doc-sidebar-menu`
 * (categories as `.menu__list-item-collapsible` with nested `ul.menu__list`).
 */
export const docusaurusExtractor: GeneratorExtractor = {
  generator: 'docusaurus',
  detect(tree) {
    const generator = select('meta[name="generator"]', tree)?.properties.content;
    if (typeof generator === 'string' && /^docusaurus/i.test(generator)) return true;
    return select('#__docusaurus', tree) !== undefined;
  },
  main(tree) {
    return (select('article .theme-doc-markdown', tree) ?? select('.theme-doc-markdown', tree) ?? select('article .markdown', tree) ?? null) as Element | null;
  },
  chrome: [
    'a.hash-link',
    '.theme-doc-breadcrumbs',
    '.theme-edit-this-page',
    '.theme-doc-footer',
    'nav.pagination-nav',
    '.theme-doc-toc-mobile',
    '.theme-doc-version-badge',
    'button[class*="copyButton"]',
    '[class*="buttonGroup"]',
  ],
  nav(tree, pageUrl) {
    const menu = select('ul.theme-doc-sidebar-menu', tree) ?? select('nav.menu ul.menu__list', tree);
    return menu ? navFromList(menu, pageUrl) : [];
  },
  titleSeparators: [' | '],
};
