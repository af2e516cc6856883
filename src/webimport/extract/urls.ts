/** `href` resolved against `base` as an absolute http(s) URL without fragment, or null (mailto:, javascript:, bad). */
export function absoluteUrl(href: string, base: string): string | null {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}
