/**
 * A loopback HTTP proxy in front of the test git server that can hold the pack request of a fetch
 * (`POST …/git-upload-pack`) or of a push (`POST …/git-receive-pack`) until the test says so: it makes "in the
 * middle of an import" (the activity has started and waits for the pack) or "in the middle of an export's push"
 * (the export read the remote head and sent its commit) a precise moment, for kill, cancel and race tests.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldingProxy {
  /** The proxy's URL for a repository of the target server, with the given userinfo. */
  url(name: string, auth?: { username: string; password: string }): string;
  /** Holds the next pack requests of `service` (default: fetches); resolves when one arrives. */
  holdNext(service?: 'git-upload-pack' | 'git-receive-pack'): Promise<void>;
  /** Lets the held requests through (`forward`) or drops their connections (`destroy`), and stops holding. */
  release(how: 'forward' | 'destroy'): void;
  stop(): Promise<void>;
}

export async function startHoldingProxy(targetPort: number): Promise<HoldingProxy> {
  let holding: string | null = null;
  let arrived: (() => void) | null = null;
  const held: Array<{ go: () => void; drop: () => void }> = [];
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const upstream = httpRequest({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (holding && req.method === 'POST' && req.url?.endsWith(`/${holding}`)) {
        held.push({ go: () => forward(req, res, body), drop: () => res.socket?.destroy() });
        arrived?.();
        return;
      }
      forward(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url(name, auth) {
      const u = new URL(`http://127.0.0.1:${port}/${name}.git`);
      if (auth) {
        u.username = encodeURIComponent(auth.username);
        u.password = encodeURIComponent(auth.password);
      }
      return u.toString();
    },
    holdNext(service = 'git-upload-pack') {
      holding = service;
      return new Promise<void>((resolve) => (arrived = resolve));
    },
    release(how) {
      holding = null;
      arrived = null;
      for (const h of held.splice(0)) (how === 'forward' ? h.go : h.drop)();
    },
    async stop() {
      this.release('destroy');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
