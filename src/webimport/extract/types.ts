import type { Element, Root } from 'hast';

/** One entry of a site's navigation, in the site's order; `url` absolute (no fragment). */
export interface NavEntry {
  title: string;
  url: string | null;
  children: NavEntry[];
}

export type SiteGenerator = 'honkit' | 'mkdocs' | 'mkdocs-material' | 'sphinx' | 'docusaurus' | 'gitbook' | 'heuristic';

/** How one generator's pages are read: recognised, main content found, chrome removed, navigation read. */
export interface GeneratorExtractor {
  generator: SiteGenerator;
  /** True when the page was built by this generator. */
  detect(tree: Root): boolean;
  /** The element holding the page's content, or null when this page has none of the generator's markup. */
  main(tree: Root): Element | null;
  /** Selectors of chrome inside the main content (permalinks, edit links, pagination, copy buttons, …). */
  chrome: string[];
  /** The site's navigation as this page shows it, URLs resolved against `pageUrl`. */
  nav(tree: Root, pageUrl: string): NavEntry[];
  /** Suffix patterns of `<title>` after the page's own title (`Page · Book`, `Page - Site`). */
  titleSeparators: string[];
}

export interface Extraction {
  generator: SiteGenerator;
  /** The main content, chrome removed (a detached copy: callers may change it). */
  main: Element;
  title: string;
  description: string | null;
  nav: NavEntry[];
}
