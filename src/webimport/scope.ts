/**
 * Which URLs belong to an import: the start URL's origin and the directory of its path (a start URL
 * `https://x.dev/docs/intro.html` imports `https://x.dev/docs/…`), one key per page (no fragment, `index.html`
 * folded into its folder), and whether a link names a page or a download.
 */

/** Extensions of links that are downloads (space files), not pages. */
const DOWNLOAD_EXTENSIONS = new Set([
  'pdf',
  'zip',
  'gz',
  'tgz',
  'tar',
  'bz2',
  'xz',
  '7z',
  'rar',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'svg',
  'webp',
  'avif',
  'ico',
  'bmp',
  'tif',
  'tiff',
  'mp4',
  'webm',
  'mov',
  'mp3',
  'wav',
  'ogg',
  'csv',
  'tsv',
  'json',
  'yaml',
  'yml',
  'xml',
  'txt',
  'docx',
  'doc',
  'xlsx',
  'xls',
  'pptx',
  'ppt',
  'odt',
  'ods',
  'odp',
  'epub',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'js',
  'mjs',
  'css',
  'wasm',
  'exe',
  'dmg',
  'deb',
  'rpm',
  'msi',
  'jar',
  'whl',
]);

/** The page key of a URL: no fragment, `…/index.html` as `…/`; null for a URL that is not http(s). */
export function pageKey(href: string, base?: string): string | null {
  let url: URL;
  try {
    url = base === undefined ? new URL(href) : new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  url.pathname = url.pathname.replace(/\/index\.html?$/i, '/');
  return url.href;
}

/** The extension of a URL's last path segment, lower case ('' when none). */
export function extensionOf(url: string): string {
  const last = new URL(url).pathname.split('/').pop() ?? '';
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
}

export function isDownload(url: string): boolean {
  return DOWNLOAD_EXTENSIONS.has(extensionOf(url));
}

export class ImportScope {
  readonly origin: string;
  /** The start URL's directory, ending in `/`. */
  readonly basePath: string;
  readonly start: string;

  constructor(startUrl: string) {
    const key = pageKey(startUrl);
    if (!key) throw new TypeError(`not an http(s) URL: ${startUrl}`);
    const url = new URL(key);
    this.start = key;
    this.origin = url.origin;
    this.basePath = url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);
  }

  /** Same origin, and under the start URL's directory. */
  contains(url: string): boolean {
    try {
      const u = new URL(url);
      return u.origin === this.origin && u.pathname.startsWith(this.basePath);
    } catch {
      return false;
    }
  }

  /** Same origin (assets may live anywhere on the site, e.g. `/_static/`). */
  sameOrigin(url: string): boolean {
    try {
      return new URL(url).origin === this.origin;
    } catch {
      return false;
    }
  }

  /** The path of a URL below the start directory, decoded, without a leading `/` (query kept as `?…`). */
  relative(url: string): string {
    const u = new URL(url);
    let p = u.pathname.startsWith(this.basePath) ? u.pathname.slice(this.basePath.length) : u.pathname.replace(/^\/+/, '');
    try {
      p = decodeURIComponent(p);
    } catch {
      // keep it encoded
    }
    return p + (u.search ? u.search : '');
  }
}
