import type { Element, Root } from 'hast';
import { detectGenerator } from './detect.js';
import { remove } from './remove.js';
import { pageDescription, pageTitle } from './title.js';
import type { Extraction } from './types.js';

export type { Extraction, GeneratorExtractor, NavEntry, SiteGenerator } from './types.js';
export { absoluteUrl } from './urls.js';
export { classNames, hasClass } from './class-names.js';

/** Heading permalinks of any generator (`¶`, `#`): anchors that only point at their own heading. */
const PERMALINKS = ['a.headerlink', 'a.hash-link', 'a.anchor-link', 'a.header-anchor', 'a.heading-anchor'];

/** The page's generator, main content (a copy, chrome removed), title, description and navigation. */
export function extractPage(tree: Root, pageUrl: string): Extraction {
  const extractor = detectGenerator(tree);
  const found = extractor.main(tree);
  const main: Element = found
    ? structuredClone(found)
    : { type: 'element', tagName: 'div', properties: {}, children: structuredClone(tree.children.filter((c) => c.type === 'element')) };
  remove(main, extractor.chrome);
  remove(main, ['script:not([type^="math/tex"])', 'style', 'noscript', 'template', ...PERMALINKS]);
  return {
    generator: extractor.generator,
    main,
    title: pageTitle(tree, main, extractor.titleSeparators, pageUrl),
    description: pageDescription(tree),
    nav: extractor.nav(tree, pageUrl),
  };
}
