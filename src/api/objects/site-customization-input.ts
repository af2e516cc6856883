/**
 * A site's customization as the API takes it (issue 33): `PUT …/customization` replaces the whole
 * `SiteCustomizationSettingsInput` (members left out take their default), `PATCH …/site-spaces/{id}/customization`
 * overrides members for one site space (`null` clears an override). Both are checked against the official schema,
 * then against what Folio publishes: the built-in fonts only (a font definition would load fonts from elsewhere),
 * logos and icons over https, and links (`{ kind: "url" }` anywhere, header links included) only to http, https,
 * mailto or relative addresses; header links are URLs or pages.
 */
import { deepMerge } from '../../publish/theme.js';
import { isAllowedLinkUrl } from '../../url-policy/index.js';

export { deepMerge };
import { badRequest } from '../http-errors.js';
import { checkOfficial, componentSchema, requestBodySchema } from '../official-schema.js';
import { defaultSiteCustomization } from './site-customization.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The members of `SiteCustomizationSettingsBase` (the official object is open; Folio's input is not). */
const MEMBERS = new Set([
  'title',
  'localizedTitle',
  'styling',
  'internationalization',
  'favicon',
  'header',
  'footer',
  'announcement',
  'themes',
  'feedback',
  'ai',
  'advancedCustomization',
  'pageActions',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
  'socialAccounts',
  'insights',
  'git',
  'pdf',
]);

/** Overrides after a PATCH: its members merged in, a `null` clearing that override. */
export function patchOverrides(current: Obj, patch: Obj): Obj {
  const out: Obj = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (isObj(v) && isObj(out[k])) out[k] = patchOverrides(out[k] as Obj, v);
    else if (isObj(v)) out[k] = patchOverrides({}, v);
    else out[k] = v;
  }
  return out;
}

function unknownMembers(body: Obj): void {
  const unknown = Object.keys(body).find((k) => !MEMBERS.has(k) && k !== 'updatedAt');
  if (unknown !== undefined) throw badRequest(`body has an unknown member "${unknown}"`);
}

const https = (url: unknown) => typeof url === 'string' && /^https:\/\/[^/]/i.test(url);

/** Folio's own rules on a whole (merged) customization; `at` names the place in an error. */
export function checkPublishable(settings: Obj): void {
  const styling = isObj(settings.styling) ? settings.styling : {};
  for (const key of ['font', 'headingFont', 'monospaceFont'])
    if (isObj(styling[key])) throw badRequest(`body.styling.${key}: Folio publishes the built-in fonts only (give one of their names)`);
  const header = isObj(settings.header) ? settings.header : {};
  const themed: Array<[string, unknown]> = [
    ['header.logo', header.logo],
    ['footer.logo', isObj(settings.footer) ? settings.footer.logo : undefined],
    ['favicon.icon', isObj(settings.favicon) ? settings.favicon.icon : undefined],
  ];
  for (const [at, value] of themed) {
    if (!isObj(value)) continue;
    for (const mode of ['light', 'dark']) if (!https(value[mode])) throw badRequest(`body.${at}.${mode} must be an https URL`);
  }
  for (const item of Array.isArray(header.links) ? header.links : []) {
    for (const ref of [(item as Obj).to, ...((item as Obj).links as Obj[]).map((l) => l.to)]) {
      if (ref === null || ref === undefined) continue;
      const kind = (ref as Obj).kind;
      if (kind !== 'url' && kind !== 'page')
        throw badRequest(`body.header.links: a link to a ${String(kind)} is not published by Folio (give a URL or a page)`);
    }
  }
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`));
    else if (isObj(value)) {
      if (value.kind === 'url' && typeof value.url === 'string' && !isAllowedLinkUrl(value.url))
        throw badRequest(`${at}.url: only http, https, mailto and relative links are published`);
      for (const [k, v] of Object.entries(value)) walk(v, `${at}.${k}`);
    }
  };
  walk(settings, 'body');
}

/** The stored customization of a `PUT`: the defaults, the body over them; checked whole. */
export function siteCustomizationFromBody(body: unknown, locale: string): Obj {
  if (!isObj(body)) throw badRequest('the body must be a JSON object');
  unknownMembers(body);
  const { updatedAt: _ignored, ...given } = body;
  const settings = deepMerge(defaultSiteCustomization(locale) as Obj, given);
  checkOfficial(componentSchema('SiteCustomizationSettingsInput'), settings);
  checkPublishable(settings);
  return settings;
}

const SITE_SPACE_PATCH = requestBodySchema('/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization', 'patch');

/** A site space's overrides after a `PATCH`; checked alone and merged over the site's customization. */
export function siteSpaceOverridesFromBody(body: unknown, current: Obj, site: Obj): Obj {
  if (!isObj(body)) throw badRequest('the body must be a JSON object');
  unknownMembers(body);
  checkOfficial(SITE_SPACE_PATCH, body);
  const overrides = patchOverrides(current, body);
  checkPublishable(deepMerge(site, overrides));
  return overrides;
}
