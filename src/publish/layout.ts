import { COPY_JS_INTEGRITY, COPY_JS_PATH } from './copy-script.js';
import { CSP_META_TAG } from './csp.js';
import { esc } from './escape.js';
import { navigationHtml, readingOrder, type NavItem } from './navigation.js';
import type { RenderedPage } from './render/index.js';
import { sectionSwitcherHtml, type SectionSwitcher } from './section-switcher.js';
import type { SiteTheme, ThemeLink } from './theme.js';

/** What the frame around an article shows: the site, its spaces, the navigation and the page. */
export interface LayoutInput {
  site: { title: string; noindex: boolean; language: string; cssHref: string; theme?: SiteTheme };
  siteSpaces: Array<{ title: string; href: string; current: boolean }>;
  /** A site with sections: its section switcher, shown instead of the list of site spaces. */
  sections?: SectionSwitcher | undefined;
  nav: NavItem[];
  page: { id: string; title: string; description?: string; twinHref: string };
  rootPrefix: string;
  body: RenderedPage;
  /** Site-relative stylesheets the page needs besides the site's (KaTeX's and the page's math styles). */
  stylesheets?: string[];
}

/** The header links of a site's customization (./theme.ts): a link, or a group of links opened without script. */
function headerLinksHtml(theme: SiteTheme | undefined, rootPrefix: string): string {
  if (!theme || theme.links.length === 0) return '';
  const a = (l: ThemeLink) => (l.href === null ? esc(l.title) : `<a href="${esc(l.internal ? rootPrefix + l.href || './' : l.href)}">${esc(l.title)}</a>`);
  const items = theme.links.map((l) =>
    l.links.length === 0
      ? `<li>${a(l)}</li>`
      : `<li><details><summary>${esc(l.title)}</summary><ul>${l.links.map((s) => `<li>${a(s)}</li>`).join('')}</ul></details></li>`,
  );
  return `<nav class="header-links" aria-label="Site links"><ul>${items.join('')}</ul></nav>`;
}

/** The site's title, or its logo (light and dark) with the title as its text alternative. */
function siteTitleHtml(title: string, theme: SiteTheme | undefined): string {
  const logo = theme?.logo;
  if (!logo) return esc(title);
  return `<picture><source srcset="${esc(logo.dark)}" media="(prefers-color-scheme: dark)"><img class="site-logo" src="${esc(logo.light)}" alt="${esc(title)}"></picture>`;
}

/** The stylesheet of a site's theme, after the site's own. */
const themeLink = (theme: SiteTheme | undefined, rootPrefix: string) =>
  theme?.css ? `<link rel="stylesheet" href="${esc(rootPrefix + theme.css.path)}">\n` : '';

/**
 * The banner: the site's title (or logo), its header links, its site spaces (when more than one); on a page, the label of the navigation drawer
 * (shown on narrow screens, where the article comes first) and the search form (a GET to `~search`).
 */
function siteHeader(
  title: string,
  siteSpaces: LayoutInput['siteSpaces'],
  rootPrefix: string,
  page = true,
  sections?: SectionSwitcher,
  theme?: SiteTheme,
): string {
  const spaces = sections
    ? sectionSwitcherHtml(sections, rootPrefix)
    : siteSpaces.length > 1
      ? `<nav class="site-spaces" aria-label="Site sections"><ul>${siteSpaces
          .map((s) => `<li><a href="${esc(rootPrefix + s.href || './')}"${s.current ? ' aria-current="true"' : ''}>${esc(s.title)}</a></li>`)
          .join('')}</ul></nav>`
      : '';
  return `<header class="site-header"><a class="site-title" href="${esc(rootPrefix || './')}">${siteTitleHtml(title, theme)}</a>${headerLinksHtml(theme, rootPrefix)}${spaces}${
    page
      ? `<label class="menu-link" for="nav-drawer">Menu</label><form class="search" role="search" action="${esc(rootPrefix)}~search" method="get"><label for="search-q">Search</label><input id="search-q" type="search" name="q"><button type="submit">Go</button></form>`
      : ''
  }</header>`;
}

/** The publication file of the search page's frame: served only through `~search`, left out of a static export. */
export const SEARCH_SHELL_PATH = '~search.html';

/** Where the served search page (`~search`, src/api/site-search.ts) puts its form and results in the shell. */
export const SEARCH_SLOT = '<!--folio:search-->';

/**
 * The frame of a site's search page, written with each publication (`~search.html`, at the site's root) and
 * filled by the server for each query at `SEARCH_SLOT`. Never indexed by robots.
 */
export function searchShellHtml(input: Pick<LayoutInput, 'site' | 'siteSpaces' | 'sections'>): string {
  const { site } = input;
  return `<!doctype html>
<html lang="${esc(site.language)}">
<head>
<meta charset="utf-8">
${CSP_META_TAG}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Search | ${esc(site.title)}</title>
<meta name="robots" content="noindex, nofollow">
<link rel="stylesheet" href="${esc(site.cssHref)}">
${themeLink(site.theme, '')}</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
${siteHeader(site.theme?.title ?? site.title, input.siteSpaces, '', false, input.sections, site.theme)}
<div class="layout layout-search">
<main id="content" tabindex="-1">
<h1>Search</h1>
${SEARCH_SLOT}
</main>
</div>
<footer class="site-footer">Published with Folio</footer>
</body>
</html>
`;
}

/**
 * A whole HTML page: landmarks (banner, navigation, main, complementary, contentinfo), a skip link, the
 * document language, one stylesheet, one small deferred script (the copy buttons, ./copy-script.ts); search is a plain GET form. Everything is readable without
 * JavaScript; the frame stays far under 100 KB for any realistic navigation.
 */
export function pageHtml(input: LayoutInput): string {
  const { site, page, rootPrefix, body } = input;
  const order = readingOrder(input.nav);
  const at = order.findIndex((n) => n.id === page.id);
  const prev = at > 0 ? order[at - 1] : undefined;
  const next = at >= 0 && at < order.length - 1 ? order[at + 1] : undefined;
  const link = (n: NavItem | undefined, rel: string, label: string) =>
    n?.href !== undefined && n.href !== null
      ? `<a rel="${rel}" href="${esc(rootPrefix + n.href || './')}"><small>${label}</small><br>${esc(n.title)}</a>`
      : '<span></span>';
  const toc = body.headings.filter((h) => h.depth === 2 || h.depth === 3);
  return `<!doctype html>
<html lang="${esc(site.language)}">
<head>
<meta charset="utf-8">
${CSP_META_TAG}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)} | ${esc(site.theme?.title ?? site.title)}</title>
${page.description ? `<meta name="description" content="${esc(page.description)}">\n` : ''}${site.noindex ? '<meta name="robots" content="noindex, nofollow">\n' : ''}<link rel="stylesheet" href="${esc(rootPrefix + site.cssHref)}">
${themeLink(site.theme, rootPrefix)}${(input.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${esc(rootPrefix + href)}">\n`).join('')}<link rel="alternate" type="text/markdown" href="${esc(rootPrefix + page.twinHref)}">
<script src="${esc(rootPrefix + COPY_JS_PATH)}" integrity="${COPY_JS_INTEGRITY}" defer></script>
</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
<input type="checkbox" id="nav-drawer" class="nav-toggle" aria-controls="site-nav" aria-label="Show the navigation">
${siteHeader(site.theme?.title ?? site.title, input.siteSpaces, rootPrefix, true, input.sections, site.theme)}
<div class="layout">
<nav class="sidebar" id="site-nav" aria-label="Pages"><label class="drawer-close" for="nav-drawer">Close</label>${navigationHtml(input.nav, page.id, rootPrefix)}</nav>
<main id="content" tabindex="-1"><article>
<h1>${esc(page.title)}</h1>
${page.description ? `<p class="description">${esc(page.description)}</p>\n` : ''}${body.html}
</article>
<nav class="pagination" aria-label="Previous and next page">${link(prev, 'prev', 'Previous')}${link(next, 'next', 'Next')}</nav>
</main>
<aside class="toc" aria-label="On this page">${toc.length > 0 ? `<p><strong>On this page</strong></p><ul>${toc.map((h) => `<li class="d${h.depth}"><a href="#${esc(h.id)}">${esc(h.text)}</a></li>`).join('')}</ul>` : ''}</aside>
</div>
<footer class="site-footer"><a href="${esc(rootPrefix + page.twinHref)}">This page as Markdown</a> · Published with Folio</footer>
</body>
</html>
`;
}
