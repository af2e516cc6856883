import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route =
  { status?: number; body?: string | Buffer; headers?: Record<string, string> } | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export interface SpecServer {
  url: string;
  port: number;
  /** Requests received per path, in order. */
  hits: string[];
  routes: Map<string, Route>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 serving fixed routes; unknown paths answer 404. */
export async function startSpecServer(routes: Record<string, Route> = {}): Promise<SpecServer> {
  const table = new Map(Object.entries(routes));
  const hits: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.push(req.url ?? '/');
    const route = table.get(path) ?? table.get(req.url ?? '/');
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof route === 'function') {
      route(req, res);
      return;
    }
    res.writeHead(route.status ?? 200, route.headers ?? {}).end(route.body ?? '');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    routes: table,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
