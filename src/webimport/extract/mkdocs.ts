import type { Element } from 'hast';
import { select } from 'hast-util-select';
import { navFromCaptionedLists, navFromList } from './nav-list.js';
import type { GeneratorExtractor } from './types.js';

/**
 * MkDocs with its built-in themes: `mkdocs` (Bootstrap: `div[role=main]`, navigation in the navbar with dropdowns
 * per section) and `readthedocs` (`div[role=main]` in `.rst-content`, the side menu `.wy-menu-vertical`).
 */
export const mkdocsExtractor: GeneratorExtractor = {
  generator: 'mkdocs',
  detect(tree) {
    const generator = select('meta[name="generator"]', tree)?.properties.content;
    if (typeof generator === 'string' && /^mkdocs-/i.test(generator) && !/mkdocs-material/i.test(generator)) return true;
    return (
      select('#mkdocs_search_modal, a[href="https://www.mkdocs.org/"], a[href="http://www.mkdocs.org"], a[href="https://www.mkdocs.org"]', tree) !== undefined
    );
  },
  main(tree) {
    return (select('.rst-content [role="main"]', tree) ?? select('div[role="main"]', tree) ?? null) as Element | null;
  },
  chrome: ['a.headerlink', '.rst-footer-buttons', '[role="navigation"]', '.wy-breadcrumbs', 'a.edit-on-github', 'footer'],
  nav(tree, pageUrl) {
    const navbar = select('ul.navbar-nav:not(.ml-auto):not(.ms-md-auto)', tree);
    if (navbar) return navFromList(navbar, pageUrl);
    const menu = select('.wy-menu-vertical', tree);
    return menu ? navFromCaptionedLists(menu, pageUrl, (e) => e.tagName === 'p') : [];
  },
  titleSeparators: [' - '],
};
