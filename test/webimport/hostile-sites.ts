/**
 * Loopback sites that misbehave, for the website import's robustness tests: a programmable HTTP server that counts
 * every request per path and answers from a handler, where a handler may also never answer (a silent server: the
 * connection is accepted, the request read, nothing sent back).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a path answers: a status with a body and headers, or `'silent'` (never answered). */
export type HostileAnswer = 'silent' | { status: number; body?: string | Buffer; headers?: Record<string, string> };

export interface HostileSite {
  base: string;
  /** Requests received per path (query excluded). */
  hits: Map<string, number>;
  /** Requests received whose path matches. */
  count(pattern: RegExp): number;
  stop(): Promise<void>;
}

export function html(title: string, body: string): HostileAnswer {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
  };
}

export const NOT_FOUND: HostileAnswer = { status: 404, body: 'not found', headers: { 'content-type': 'text/plain' } };

export async function startHostileSite(answer: (path: string, base: string) => HostileAnswer): Promise<HostileSite> {
  const hits = new Map<string, number>();
  let base = '';
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const a = answer(path, base);
    if (a === 'silent') return; // accepted and read; never answered
    res.writeHead(a.status, a.headers ?? {});
    res.end(a.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    count: (pattern) => [...hits].filter(([p]) => pattern.test(p)).reduce((n, [, c]) => n + c, 0),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A `<urlset>` of `count` URLs `${base}${prefix}p<i>.html`, built once (about 60 bytes a URL). */
export function bigSitemap(base: string, prefix: string, count: number): string {
  const parts: string[] = ['<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
  for (let i = 0; i < count; i++) parts.push(`<url><loc>${base}${prefix}p${i}.html</loc></url>`);
  parts.push('</urlset>');
  return parts.join('');
}
