import type { Element, Root } from 'hast';
import { matches, select, selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';
import { navFromList } from './nav-list.js';
import type { GeneratorExtractor } from './types.js';

const BOILERPLATE = 'header, footer, nav, aside, script, style, noscript, form, [role="navigation"], [role="banner"], [role="contentinfo"], [role="search"]';

/**
 * Any other site, readability-style: `main`/`[role=main]`/a single `article` when there is one, otherwise the block
 * whose paragraphs carry the most text with the fewest links (each paragraph scores its parent, half its grandparent).
 */
export const heuristicExtractor: GeneratorExtractor = {
  generator: 'heuristic',
  detect: () => true,
  main(tree) {
    const landmark = select('main', tree) ?? select('[role="main"]', tree);
    if (landmark) return landmark as Element;
    const articles = selectAll('article', tree);
    if (articles.length === 1) return articles[0]!;
    return densest(tree);
  },
  chrome: ['header', 'footer', 'nav', 'aside', 'form', '[role="navigation"]', '[role="search"]'],
  nav(tree, pageUrl) {
    const list = select('nav ul', tree) ?? select('[role="navigation"] ul', tree);
    return list ? navFromList(list as Element, pageUrl) : [];
  },
  titleSeparators: [' | ', ' - ', ' · ', ' — ', ' – '],
};

function densest(tree: Root): Element | null {
  const scores = new Map<Element, number>();
  const parents = new Map<Element, Element>();
  const walk = (node: Element | Root, parent: Element | null): void => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (parent) parents.set(child, parent);
      walk(child, node.type === 'element' ? node : null);
    }
  };
  walk(tree, null);
  const body = select('body', tree);
  for (const p of selectAll('p, pre, li, td, blockquote', tree)) {
    if (insideBoilerplate(p, parents)) continue;
    const text = toText(p).trim();
    if (text.length < 25) continue;
    const links = selectAll('a', p).reduce((n, a) => n + toText(a).length, 0);
    const score = (1 + Math.min(text.length / 100, 3) + (text.match(/[,.;:]/g)?.length ?? 0) * 0.1) * (1 - links / text.length);
    const parent = parents.get(p);
    if (!parent) continue;
    scores.set(parent, (scores.get(parent) ?? 0) + score);
    const grand = parents.get(parent);
    if (grand) scores.set(grand, (scores.get(grand) ?? 0) + score / 2);
  }
  let best: Element | null = null;
  let bestScore = 0;
  for (const [element, score] of scores) {
    if (element.tagName === 'body' || ['ul', 'ol', 'table', 'tbody', 'tr'].includes(element.tagName)) continue;
    if (score > bestScore) [best, bestScore] = [element, score];
  }
  return best ?? (body as Element | undefined) ?? null;
}

function insideBoilerplate(element: Element, parents: Map<Element, Element>): boolean {
  for (let node: Element | undefined = element; node; node = parents.get(node)) {
    if (matches(BOILERPLATE, node)) return true;
  }
  return false;
}
