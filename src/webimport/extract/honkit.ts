import type { Element } from 'hast';
import { select } from 'hast-util-select';
import { toText } from 'hast-util-to-text';
import { hasClass } from './class-names.js';
import { captioned, navFromList } from './nav-list.js';
import type { GeneratorExtractor, NavEntry } from './types.js';

/**
 * HonKit and legacy GitBook (the `gitbook` CLI, 2.x–3.x): `section.markdown-section` in `.page-inner`, the summary
 * `ul.summary` of `li.chapter` (nested `ul.articles`) with `li.header` part titles.
 */
export const honkitExtractor: GeneratorExtractor = {
  generator: 'honkit',
  detect(tree) {
    const generator = select('meta[name="generator"]', tree)?.properties.content;
    if (typeof generator === 'string' && /^(honkit|gitbook \d)/i.test(generator)) return true;
    return select('.book .book-summary', tree) !== undefined && select('section.markdown-section', tree) !== undefined;
  },
  main(tree) {
    return (select('.page-inner section.markdown-section', tree) ?? select('section.markdown-section', tree) ?? null) as Element | null;
  },
  chrome: ['a.anchor', 'a.plugin-anchor', '.page-footer', '.treeview__container', '.copy-code-button', '#book-search-results .search-results', '.navigation'],
  nav(tree, pageUrl) {
    const summary = select('.book-summary ul.summary', tree);
    return summary ? summaryNav(summary, pageUrl) : [];
  },
  titleSeparators: [' · '],
};

function summaryNav(summary: Element, pageUrl: string): NavEntry[] {
  const entries: NavEntry[] = [];
  let part: NavEntry | null = null;
  for (const li of summary.children) {
    if (li.type !== 'element' || li.tagName !== 'li') continue;
    if (hasClass(li, 'divider') || select('a.gitbook-link', li)) continue;
    if (hasClass(li, 'header')) {
      part = captioned(toText(li), []);
      entries.push(part);
      continue;
    }
    const list: Element = { type: 'element', tagName: 'ul', properties: {}, children: [li] };
    (part ? part.children : entries).push(...navFromList(list, pageUrl));
  }
  return entries;
}
