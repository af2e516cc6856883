import { COPY_JS_INTEGRITY } from './copy-script.js';

/**
 * The Content Security Policy of published pages: no script may run but the copy button's (by its hash, ./copy-script.ts), styles, fonts (KaTeX's) and images from the site only (images
 * also https and data:), forms only to the site, no `<base>`. Served sites send it as a header (with
 * `frame-ancestors`); every HTML file of a publication also carries it as a `<meta http-equiv>` so a site written by
 * `folio site export` keeps it on any static host (a `<meta>` policy cannot hold `frame-ancestors`).
 */
const DIRECTIVES = [
  "default-src 'none'",
  `script-src '${COPY_JS_INTEGRITY}'`,
  "style-src 'self'",
  "font-src 'self'",
  "img-src 'self' https: data:",
  "form-action 'self'",
  "base-uri 'none'",
];

/** The header of served HTML pages. */
export const PAGE_CSP = [...DIRECTIVES, "frame-ancestors 'self'"].join('; ');

/** The same policy in the page itself (attribute-safe: no `"`, `<` or `&`). */
export const META_CSP = DIRECTIVES.join('; ');

export const CSP_META_TAG = `<meta http-equiv="Content-Security-Policy" content="${META_CSP}">`;

/**
 * The HTML with the policy's `<meta>` as the first element after `<meta charset>` (or after `<head>`), unless it has
 * one; `null` when it has no `<head>` to put it in.
 */
export function withCspMeta(html: string): string | null {
  if (/<meta\s+http-equiv=["']?content-security-policy/i.test(html)) return html;
  const charset = /<meta\s+charset=["']?[\w-]+["']?\s*\/?>/i.exec(html);
  const head = charset ?? /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return null;
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}${CSP_META_TAG}${html.slice(at)}`;
}
