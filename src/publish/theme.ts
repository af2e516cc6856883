/**
 * What a site's customization (issue 33; the official `SiteCustomizationSettings`, validated by the API) changes in
 * the published site: the title, the logo in the header (light and dark), the primary colour and the tint as CSS
 * custom properties in a stylesheet of their own (`_static/theme.<hash>.css`: no inline style, the page's policy
 * stays `style-src 'self'`), the fonts, and the header links. Everything is checked again here (colours as hex,
 * logos over https, links through the URL policy, page links to pages of the site): what fails is left out.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store/index.js';
import { isAllowedLinkUrl } from '../url-policy/index.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The built-in fonts (the spec's `CustomizationDefaultFont` and `…MonospaceFont`) as CSS families; the reader's copy if installed. */
const FONTS: Record<string, string> = {
  ABCFavorit: 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
  Inter: '"Inter",system-ui,sans-serif',
  Roboto: '"Roboto",system-ui,sans-serif',
  RobotoSlab: '"Roboto Slab",Georgia,serif',
  OpenSans: '"Open Sans",system-ui,sans-serif',
  SourceSansPro: '"Source Sans Pro","Source Sans 3",system-ui,sans-serif',
  Lato: '"Lato",system-ui,sans-serif',
  Ubuntu: '"Ubuntu",system-ui,sans-serif',
  Raleway: '"Raleway",system-ui,sans-serif',
  Merriweather: '"Merriweather",Georgia,serif',
  Overpass: '"Overpass",system-ui,sans-serif',
  NotoSans: '"Noto Sans",system-ui,sans-serif',
  IBMPlexSerif: '"IBM Plex Serif",Georgia,serif',
  Poppins: '"Poppins",system-ui,sans-serif',
  FiraSans: '"Fira Sans",system-ui,sans-serif',
};
const MONO_FONTS: Record<string, string> = {
  FiraCode: '"Fira Code",ui-monospace,monospace',
  IBMPlexMono: '"IBM Plex Mono",ui-monospace,monospace',
  JetBrainsMono: '"JetBrains Mono",ui-monospace,monospace',
  SourceCodePro: '"Source Code Pro",ui-monospace,monospace',
  RobotoMono: '"Roboto Mono",ui-monospace,monospace',
  SpaceMono: '"Space Mono",ui-monospace,monospace',
  DMMono: '"DM Mono",ui-monospace,monospace',
  Inconsolata: '"Inconsolata",ui-monospace,monospace',
};

/** `base` with `over`'s members: objects merged member by member, anything else (arrays included) replaced. */
export function deepMerge(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObj(v) && isObj(out[k]) ? deepMerge(out[k] as Obj, v) : v;
  return out;
}

const HEX = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

export interface ThemeLink {
  title: string;
  /** The address (null: shown as text); `internal`: a page's, relative to the site's root. */
  href: string | null;
  internal: boolean;
}

export interface HeaderLink extends ThemeLink {
  links: ThemeLink[];
}

export interface SiteTheme {
  title?: string;
  logo?: { light: string; dark: string };
  links: HeaderLink[];
  /** The theme's stylesheet and its site path; none when nothing in it differs from the site's stylesheet. */
  css?: { path: string; content: string };
}

function themed(value: unknown): { light: string; dark: string } | undefined {
  if (!isObj(value) || typeof value.light !== 'string' || typeof value.dark !== 'string') return undefined;
  return HEX.test(value.light) && HEX.test(value.dark) ? { light: value.light, dark: value.dark } : undefined;
}

function themeCss(styling: Obj): string {
  const light: string[] = [];
  const dark: string[] = [];
  const primary = themed(styling.primaryColor);
  if (primary) {
    light.push(`--accent:${primary.light}`);
    dark.push(`--accent:${primary.dark}`);
  }
  const tint = isObj(styling.tint) ? themed(styling.tint.color) : undefined;
  if (tint) {
    light.push(`--tint:${tint.light}`);
    dark.push(`--tint:${tint.dark}`);
  }
  const font = typeof styling.font === 'string' ? FONTS[styling.font] : undefined;
  const mono = typeof styling.monospaceFont === 'string' ? MONO_FONTS[styling.monospaceFont] : undefined;
  const rules: string[] = [];
  if (light.length > 0) rules.push(`:root{${light.join(';')}}`, `@media (prefers-color-scheme:dark){:root{${dark.join(';')}}}`);
  if (font && styling.font !== 'ABCFavorit') rules.push(`:root{font-family:${font}}`);
  if (mono && styling.monospaceFont !== 'FiraCode') rules.push(`code{font-family:${mono}}`);
  if (tint) rules.push('.site-header{background:color-mix(in srgb,var(--tint) 12%,var(--bg))}');
  return rules.join('\n');
}

function link(title: string, to: unknown, pageHref: (pageId: string) => string | undefined): ThemeLink {
  if (isObj(to) && to.kind === 'url' && typeof to.url === 'string' && isAllowedLinkUrl(to.url)) return { title, href: to.url, internal: false };
  const page = isObj(to) && to.kind === 'page' && typeof to.page === 'string' ? pageHref(to.page) : undefined;
  return { title, href: page ?? null, internal: page !== undefined };
}

function headerLinks(header: Obj, pageHref: (pageId: string) => string | undefined): HeaderLink[] {
  const items = Array.isArray(header.links) ? header.links.filter(isObj) : [];
  return items
    .filter((i) => typeof i.title === 'string')
    .map((i) => ({
      ...link(i.title as string, i.to, pageHref),
      links: (Array.isArray(i.links) ? i.links.filter(isObj) : [])
        .filter((l) => typeof l.title === 'string')
        .map((l) => link(l.title as string, l.to, pageHref)),
    }));
}

/** The theme of one site space (its customization: the site's with the site space's overrides merged in). */
export function siteTheme(settings: Obj, pageHref: (pageId: string) => string | undefined): SiteTheme {
  const styling = isObj(settings.styling) ? settings.styling : {};
  const header = isObj(settings.header) ? settings.header : {};
  const logo = isObj(header.logo) ? header.logo : undefined;
  const https = (v: unknown): v is string => typeof v === 'string' && /^https:\/\/[^/]/i.test(v);
  const css = themeCss(styling);
  const hash = createHash('sha256').update(css).digest('hex').slice(0, 16);
  return {
    ...(typeof settings.title === 'string' && settings.title !== '' ? { title: settings.title } : {}),
    ...(logo && https(logo.light) && https(logo.dark) ? { logo: { light: logo.light, dark: logo.dark } } : {}),
    links: headerLinks(header, pageHref),
    ...(css !== '' ? { css: { path: `_static/theme.${hash}.css`, content: `${css}\n` } } : {}),
  };
}

/**
 * The theme of each site space of a publish run (in `siteSpaceIds` order): the site's stored customization with the
 * site space's overrides; a site without a stored customization has no theme (Folio's own look).
 */
export async function siteSpaceThemes(
  store: Store,
  siteId: string,
  siteSpaceIds: string[],
  pageHref: (pageId: string) => string | undefined,
): Promise<Array<SiteTheme | undefined>> {
  const stored = await store.siteSettings.customization(siteId);
  const overrides = await store.siteSettings.siteSpaceCustomizations(siteId);
  return siteSpaceIds.map((id) => {
    const over = overrides.get(id);
    if (!stored && !over) return undefined;
    return siteTheme(deepMerge(stored?.settings ?? {}, over ?? {}), pageHref);
  });
}
