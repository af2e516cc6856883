import type { Element } from 'hast';
import { select } from 'hast-util-select';
import { navFromList } from './nav-list.js';
import type { GeneratorExtractor } from './types.js';

/**
 * Sites published by GitBook (2023+): the page in `main`, its header (breadcrumb, title, description) and footer
 * ("Last updated", previous/next) around the content, the table of contents in the `aside` of the layout.
 */
export const gitbookExtractor: GeneratorExtractor = {
  generator: 'gitbook',
  detect(tree) {
    const generator = select('meta[name="generator"]', tree)?.properties.content;
    return typeof generator === 'string' && /^gitbook(?! \d)/i.test(generator);
  },
  main(tree) {
    return (select('main', tree) ?? null) as Element | null;
  },
  chrome: [
    'main > header',
    'header',
    'nav',
    'aside',
    'footer',
    '[aria-label="Breadcrumb"]',
    'a[href*="/edit/"]',
    '.hash',
    'a[aria-label*="Direct link"]',
    'button[aria-label*="Copy"]',
    '[data-testid="page.footer"]',
    'a[class*="pagination"]',
  ],
  nav(tree, pageUrl) {
    const toc = select('aside [data-testid="table-of-contents"] ul', tree) ?? select('aside ul', tree);
    return toc ? navFromList(toc as Element, pageUrl) : [];
  },
  titleSeparators: [' | '],
};
