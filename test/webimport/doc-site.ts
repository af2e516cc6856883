/**
 * A small documentation site on loopback for the website import tests: pages under `/<prefix>/`, a sitemap, a
 * robots.txt with a Disallow, a navigation, images (one shared by two pages), a download, a page answering 429
 * (Retry-After: 1) once and one answering 500 once. Every request is counted per path; `hold` makes chosen paths
 * wait until released (to catch a run in the middle of its crawl).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SitePage {
  path: string;
  title: string;
  body: string;
}

export interface DocSite {
  base: string;
  /** Requests per path (query excluded). */
  hits: Map<string, number>;
  /** Paths whose responses wait until `release()`. */
  hold(pattern: RegExp): void;
  release(): void;
  /** Resolves once a request for a held path arrived. */
  held(): Promise<string>;
  stop(): Promise<void>;
}

/** A 1×1 PNG (the same bytes wherever served: deduplicated into one space file). */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const PNG2 = Buffer.concat([PNG, Buffer.from('different')]);

function page(title: string, body: string, nav: string): string {
  return `<!doctype html><html><head><title>${title}</title><meta name="description" content="About ${title}."></head>
<body><header><a href="/">Home</a></header><nav>${nav}</nav><main>${body}</main><footer>Footer text</footer></body></html>`;
}

/** The pages of the small site under `/<prefix>/` (the start URL is `/<prefix>/`). */
export function smallSite(prefix: string): SitePage[] {
  const p = `/${prefix}`;
  return [
    {
      path: `${p}/`,
      title: 'Welcome',
      body: `<h1>Welcome</h1><p>Start with the <a href="guide/">guide</a> or <a href="zebra.html#stripes">zebras</a>.</p><img src="img/logo.png" alt="Logo">`,
    },
    { path: `${p}/guide/`, title: 'Guide', body: `<h1>Guide</h1><p>Read <a href="install.html">Install</a> next, then <a href="../alpha.html">Alpha</a>.</p>` },
    {
      path: `${p}/guide/install.html`,
      title: 'Install',
      body: `<h1>Install</h1><pre><code class="language-bash">npm install folio\n</code></pre><p>Get the <a href="../files/manual.pdf">manual</a>.</p><img src="../img/logo.png" alt="Logo again">`,
    },
    {
      path: `${p}/zebra.html`,
      title: 'Zebra',
      body: `<h1 id="stripes">Zebra</h1><p>Back to <a href="./">the start</a>.</p><img src="img/zebra.png" alt="Zebra">`,
    },
    { path: `${p}/alpha.html`, title: 'Alpha', body: `<h1>Alpha</h1><p>Alpha comes after Zebra in this site.</p>` },
    { path: `${p}/flaky.html`, title: 'Flaky', body: `<h1>Flaky</h1><p>Answered 429 once.</p>` },
    { path: `${p}/broken.html`, title: 'Broken', body: `<h1>Broken</h1><p>Answered 500 once.</p>` },
    { path: `${p}/private/secret.html`, title: 'Secret', body: `<h1>Secret</h1><p>robots.txt disallows this page.</p>` },
  ];
}

export async function startDocSite(sites: Record<string, SitePage[]>): Promise<DocSite> {
  const hits = new Map<string, number>();
  const pages = new Map<string, SitePage>();
  for (const list of Object.values(sites)) for (const p of list) pages.set(p.path, p);
  let holdPattern: RegExp | null = null;
  let releaseAll: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  const heldWaiters: Array<(path: string) => void> = [];
  let base = '';
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    if (holdPattern?.test(path) && gate) {
      for (const w of heldWaiters.splice(0)) w(path);
      await gate;
    }
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(
        `User-agent: *\nDisallow: /${Object.keys(sites)[0]}/private/\n${Object.keys(sites)
          .map((s) => `Disallow: /${s}/private/\n`)
          .join('')}\nSitemap: ${base}/sitemap.xml\n`,
      );
    }
    if (path === '/sitemap.xml') {
      // A sitemap index pointing at one sitemap per site.
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(
        `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Object.keys(sites)
          .map((s) => `<sitemap><loc>${base}/${s}/sitemap-pages.xml</loc></sitemap>`)
          .join('')}</sitemapindex>`,
      );
    }
    const sitemap = /^\/([^/]+)\/sitemap-pages\.xml$/.exec(path);
    if (sitemap && sites[sitemap[1]!]) {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sites[sitemap[1]!]!.map((p) => `<url><loc>${base}${p.path}</loc></url>`).join('')}</urlset>`,
      );
    }
    if (/\/img\/logo\.png$/.test(path)) {
      res.writeHead(200, { 'content-type': 'image/png', etag: '"logo-1"' });
      return res.end(PNG);
    }
    if (/\/img\/zebra\.png$/.test(path)) {
      res.writeHead(200, { 'content-type': 'image/png', 'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT' });
      return res.end(PNG2);
    }
    if (/\/files\/manual\.pdf$/.test(path)) {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end('%PDF-1.4 manual');
    }
    const p = pages.get(path);
    if (!p) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    if (path.endsWith('/flaky.html') && n === 1) {
      res.writeHead(429, { 'retry-after': '1' });
      return res.end('slow down');
    }
    if (path.endsWith('/broken.html') && n === 1) {
      res.writeHead(500);
      return res.end('oops');
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag: `"${path}"` });
    res.end(page(p.title, p.body, '<a href="./">Welcome</a>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    hold(pattern) {
      holdPattern = pattern;
      gate = new Promise<void>((resolve) => (releaseAll = resolve));
    },
    release() {
      holdPattern = null;
      releaseAll?.();
      gate = null;
    },
    held: () => new Promise<string>((resolve) => heldWaiters.push(resolve)),
    async stop() {
      this.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
