import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One file of KaTeX's stylesheet and fonts, as a publication writes it. */
export interface StaticAsset {
  path: string;
  contentType: string;
  content: Uint8Array;
  hash: string;
}

let cached: { cssPath: string; files: StaticAsset[] } | null = null;

/**
 * KaTeX's stylesheet and its WOFF2 fonts (every browser that renders KaTeX reads WOFF2; the WOFF and TTF fallbacks
 * are dropped from the `@font-face` rules), published under `_static/katex/<hash>/` on sites with math: served
 * from the site itself, allowed by the policy's `font-src 'self'` and `style-src 'self'`.
 */
export function katexAssets(): { cssPath: string; files: StaticAsset[] } {
  if (cached) return cached;
  const dist = dirname(createRequire(import.meta.url).resolve('katex/dist/katex.min.css'));
  const css = readFileSync(join(dist, 'katex.min.css'), 'utf8').replace(
    /src:url\((fonts\/[\w-]+\.woff2)\) format\("woff2"\)(?:,url\(fonts\/[\w-]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\))*/g,
    'src:url($1) format("woff2")',
  );
  const fonts = readdirSync(join(dist, 'fonts'))
    .filter((f) => f.endsWith('.woff2'))
    .sort()
    .map((f) => ({ name: f, content: new Uint8Array(readFileSync(join(dist, 'fonts', f))) }));
  const sha = (b: string | Uint8Array) => createHash('sha256').update(b).digest('hex');
  const dir = `_static/katex/${sha(css + fonts.map((f) => sha(f.content)).join()).slice(0, 16)}/`;
  const files: StaticAsset[] = [
    { path: `${dir}katex.min.css`, contentType: 'text/css; charset=utf-8', content: new TextEncoder().encode(css), hash: sha(css) },
    ...fonts.map((f) => ({ path: `${dir}fonts/${f.name}`, contentType: 'font/woff2', content: f.content, hash: sha(f.content) })),
  ];
  cached = { cssPath: `${dir}katex.min.css`, files };
  return cached;
}

/** Where a page's math styles are published: content-addressed, shared by pages whose formulas match. */
export function mathCssPath(css: string): string {
  return `_static/math/${createHash('sha256').update(css).digest('hex').slice(0, 20)}.css`;
}
