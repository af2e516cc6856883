/**
 * The one URL policy of everything Folio renders or writes as a link: only `http:`, `https:` and `mailto:` URLs,
 * relative URLs and anchors become links; every other scheme (`javascript:`, `vbscript:`, `data:`, `file:`, `tel:`,
 * …) is refused, and the caller keeps the link's text. Images: `http:`, `https:` and relative URLs only (a `data:`
 * image is never written as a URL: the website import keeps it as a file, see src/webimport/convert/data-images.ts).
 *
 * The scheme is read as a browser reads it, whatever hides it: HTML character references (`&#106;avascript:`,
 * `javascript&colon;`, decoded repeatedly, as a value may be decoded once by a markdown parser and again by an HTML
 * one), ASCII tab and newline anywhere (`java\tscript:`), leading C0 controls and spaces, any letter case. A colon
 * before the first `/`, `?` or `#` counts as a scheme even where a browser would see a relative path (`a&b:c`):
 * refusing one relative link too many is the safe side.
 */

const LINK_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES: ReadonlySet<string> = new Set(['http', 'https']);

/** The named character references that can spell a scheme or hide one (the rest cannot form `[a-z+.-:]`). */
const NAMED: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  nbsp: '\u00a0',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  quest: '?',
  num: '#',
  period: '.',
  plus: '+',
  hyphen: '-',
  dash: '-',
  lowbar: '_',
  excl: '!',
  lpar: '(',
  rpar: ')',
  semi: ';',
  equals: '=',
  percnt: '%',
  commat: '@',
  bsol: '\\',
};

const REFERENCE = /&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,10}|[A-Za-z][A-Za-z0-9]{1,31});?/g;

function decodeOnce(value: string): string {
  return value.replace(REFERENCE, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref.toLowerCase()];
    return named ?? whole;
  });
}

/** The value with its character references decoded until nothing changes (at most 4 rounds). */
export function decodeCharacterReferences(value: string): string {
  let current = value;
  for (let i = 0; i < 4; i++) {
    const next = decodeOnce(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** What a browser's URL parser starts from: tab and newline removed anywhere, C0 controls and spaces trimmed. */
function browserForm(value: string): string {
  return value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

/** The lower-case scheme of `value` as written (`''` for a relative URL or an anchor). */
function schemeOfForm(value: string): string {
  const form = browserForm(value);
  const end = form.search(/[/?#]/);
  const head = end < 0 ? form : form.slice(0, end);
  const colon = head.indexOf(':');
  return colon < 0 ? '' : head.slice(0, colon).toLowerCase();
}

/** The schemes of `url` as written and as a reader decoding its character references sees it (`''`: relative). */
function readings(url: string): [string, string] {
  return [schemeOfForm(url), schemeOfForm(decodeCharacterReferences(url))];
}

function allowedBy(schemes: ReadonlySet<string>, url: string): boolean {
  return readings(url).every((scheme) => scheme === '' || schemes.has(scheme));
}

/** Whether `url` may be written as a link: http, https, mailto, relative or an anchor. */
export function isAllowedLinkUrl(url: string): boolean {
  return allowedBy(LINK_SCHEMES, url);
}

/** Whether `url` may be written as an image source: http, https or relative (never `data:`). */
export function isAllowedImageUrl(url: string): boolean {
  return allowedBy(IMAGE_SCHEMES, url);
}

/** Whether `url` is absolute with an allowed link scheme (`https://x`, `mailto:a@b`), not a site-relative address. */
export function isAbsoluteAllowedUrl(url: string): boolean {
  return isAllowedLinkUrl(url) && readings(url)[0] !== '';
}

/** The scheme a reader would see in `url` (lower case, `''` for a relative URL or an anchor): the decoded one first. */
export function urlScheme(url: string): string {
  const [raw, decoded] = readings(url);
  return decoded || raw;
}

/** A short, printable name of the scheme of a refused URL for warnings (`javascript:`). */
export function refusedSchemeLabel(url: string): string {
  const [raw, decoded] = readings(url);
  const scheme = decoded && !LINK_SCHEMES.has(decoded) ? decoded : raw || decoded;
  return `${scheme.replace(/[^a-z0-9+.-]/g, '').slice(0, 20) || '?'}:`;
}
