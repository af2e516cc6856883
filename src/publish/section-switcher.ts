import { esc } from './escape.js';

export interface SwitcherLink {
  title: string;
  /** Site-relative address (`''` is the site's root). */
  href: string;
  current: boolean;
}

/** What a page of a site with sections shows above its article: the sections, and the current section's site spaces. */
export interface SectionSwitcher {
  items: Array<({ kind: 'section' } & SwitcherLink) | { kind: 'group'; title: string; links: SwitcherLink[] }>;
  /** The current section's site spaces (versions, languages) when it has more than one; empty otherwise. */
  variants: SwitcherLink[];
}

const href = (rootPrefix: string, link: SwitcherLink) => esc(rootPrefix + link.href || './');
const current = (link: SwitcherLink) => (link.current ? ' aria-current="page"' : '');
const linkHtml = (rootPrefix: string, link: SwitcherLink) => `<a href="${href(rootPrefix, link)}"${current(link)}>${esc(link.title)}</a>`;

/**
 * The section switcher: server-rendered links (no script), a group as a `<details>` disclosure (open when it holds
 * the current section), the current section marked with `aria-current`; and, when the current section has several
 * site spaces, a second disclosure that lists them with the current one marked. Every control is a link or a
 * native `<summary>`, so a keyboard reaches and opens each of them.
 */
export function sectionSwitcherHtml(switcher: SectionSwitcher, rootPrefix: string): string {
  const items = switcher.items
    .map((item) => {
      if (item.kind === 'section') return `<li>${linkHtml(rootPrefix, item)}</li>`;
      const open = item.links.some((l) => l.current) ? ' open' : '';
      return `<li class="section-group"><details${open}><summary>${esc(item.title)}</summary><ul>${item.links
        .map((l) => `<li>${linkHtml(rootPrefix, l)}</li>`)
        .join('')}</ul></details></li>`;
    })
    .join('');
  const sections = `<nav class="site-sections" aria-label="Site sections"><ul>${items}</ul></nav>`;
  if (switcher.variants.length < 2) return sections;
  const chosen = switcher.variants.find((v) => v.current) ?? switcher.variants[0]!;
  const variants = `<nav class="site-variants" aria-label="Versions of this section"><details><summary>${esc(chosen.title)}</summary><ul>${switcher.variants
    .map((v) => `<li>${linkHtml(rootPrefix, v)}</li>`)
    .join('')}</ul></details></nav>`;
  return sections + variants;
}

/** The switcher's styles (appended to the site's stylesheet). */
export const SECTION_SWITCHER_CSS = `.site-sections ul,.site-variants ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
.site-sections a[aria-current],.site-variants a[aria-current]{font-weight:600;text-decoration:underline}
.section-group details,.site-variants details{position:relative}
.section-group summary,.site-variants summary{cursor:pointer}
.section-group details[open] ul,.site-variants details[open] ul{flex-direction:column;padding:.25rem 0 .25rem 1rem}
`;
