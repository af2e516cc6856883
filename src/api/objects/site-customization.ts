/**
 * The customization of a site that has none stored (./site-customization-input.ts stores one): the official
 * `SiteCustomizationSettings` shape with the values that describe what Folio renders (its colors, light and
 * dark following the reader's system, previous/next pagination, no AI, no tracking cookie).
 */
export function defaultSiteCustomization(locale: string) {
  const accent = { light: '#2251d1', dark: '#8aa8ff' };
  return {
    styling: {
      theme: 'clean',
      primaryColor: accent,
      infoColor: accent,
      successColor: { light: '#1a7f37', dark: '#1a7f37' },
      warningColor: { light: '#b58100', dark: '#b58100' },
      dangerColor: { light: '#cf222e', dark: '#cf222e' },
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'ABCFavorit',
      monospaceFont: 'FiraCode',
      codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'prominent',
    },
    internationalization: { locale },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: false },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: false },
    trademark: { enabled: false },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    pageActions: { items: [] },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: false },
  };
}
