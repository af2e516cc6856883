/**
 * A directory served over HTTP on loopback, as a static web host would serve a generated site: files by path
 * (percent-decoded, never outside the directory), a folder's `index.html` for its URL (a folder URL without its
 * trailing slash redirects to it), content types by extension, 404 for anything else.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

/** Content types by extension, as a static web host sends them (also the benchmarks' corpus site). */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export interface StaticSite {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Requests served, by path. */
  hits: Map<string, number>;
  stop(): Promise<void>;
}

export async function serveDirectory(dir: string): Promise<StaticSite> {
  const root = resolve(dir);
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
      let path: string;
      try {
        path = resolve(join(root, decodeURIComponent(url.pathname)));
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (path !== root && !path.startsWith(root + sep)) {
        res.writeHead(404).end();
        return;
      }
      let info = await stat(path).catch(() => null);
      if (info?.isDirectory()) {
        if (!url.pathname.endsWith('/')) {
          res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
          return;
        }
        path = join(path, 'index.html');
        info = await stat(path).catch(() => null);
      }
      if (!info?.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream', 'content-length': info.size });
      if (req.method === 'HEAD') res.end();
      else createReadStream(path).pipe(res);
    })();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
