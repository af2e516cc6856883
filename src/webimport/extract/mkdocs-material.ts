import type { Element } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { remove } from './remove.js';
import { navFromList } from './nav-list.js';
import type { GeneratorExtractor } from './types.js';

/**
 * Material for MkDocs: `article.md-content__inner`, the primary navigation `nav.md-nav--primary` (sections as
 * labels with nested `nav`), the page's table of contents `nav.md-nav--secondary` inside it (left out).
 */
export const mkdocsMaterialExtractor: GeneratorExtractor = {
  generator: 'mkdocs-material',
  detect(tree) {
    const generator = select('meta[name="generator"]', tree)?.properties.content;
    if (typeof generator === 'string' && /mkdocs-material/i.test(generator)) return true;
    return select('.md-container .md-content', tree) !== undefined;
  },
  main(tree) {
    return (select('article.md-content__inner', tree) ?? select('.md-content', tree) ?? null) as Element | null;
  },
  chrome: [
    'a.headerlink',
    'a.md-content__button',
    '.md-source-file',
    '.md-feedback',
    'button.md-clipboard',
    'nav.md-footer',
    '.md-tags',
    'aside.md-source-file',
  ],
  nav(tree, pageUrl) {
    const primary = select('nav.md-nav--primary', tree);
    if (!primary) return [];
    const copy = structuredClone(primary);
    remove(copy, ['nav.md-nav--secondary', 'label.md-nav__title', 'label.md-nav__link[for$="_toc"]']);
    const list = selectAll('ul.md-nav__list', copy)[0];
    return list ? navFromList(list, pageUrl) : [];
  },
  titleSeparators: [' - '],
};
