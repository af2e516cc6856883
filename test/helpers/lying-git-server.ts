/**
 * A hostile git smart-HTTP server on 127.0.0.1: it advertises `refs/heads/main` (and HEAD) at a commit id it
 * was told, without having that commit, and answers every fetch with NAK and an empty pack. A client that
 * already holds the commit (e.g. because it sent it as a `have` from a shared cache) accepts the ref: that
 * is how a cache shared across tenants hands one tenant's private commit to another.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LyingGitServer {
  url(name: string): string;
  /** The commit id advertised for `refs/heads/main` from now on. */
  advertise(oid: string): void;
  /** `have` lines received in upload-pack requests so far. */
  readonly haves: string[];
  stop(): Promise<void>;
}

const pkt = (line: string | Buffer): Buffer => {
  const body = typeof line === 'string' ? Buffer.from(line) : line;
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
};
const FLUSH = Buffer.from('0000');

function emptyPack(): Buffer {
  const header = Buffer.concat([Buffer.from('PACK'), Buffer.from([0, 0, 0, 2]), Buffer.from([0, 0, 0, 0])]);
  return Buffer.concat([header, createHash('sha1').update(header).digest()]);
}

export async function startLyingGitServer(): Promise<LyingGitServer> {
  let advertised = '0'.repeat(40);
  const haves: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET' && url.pathname.endsWith('/info/refs') && url.searchParams.get('service') === 'git-upload-pack') {
        res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement', 'cache-control': 'no-cache' });
        res.end(
          Buffer.concat([
            pkt('# service=git-upload-pack\n'),
            FLUSH,
            pkt(`${advertised} HEAD\0side-band-64k shallow no-progress symref=HEAD:refs/heads/main agent=git/lying\n`),
            pkt(`${advertised} refs/heads/main\n`),
            FLUSH,
          ]),
        );
        return;
      }
      if (req.method === 'POST' && url.pathname.endsWith('/git-upload-pack')) {
        for (const m of Buffer.concat(chunks)
          .toString('latin1')
          .matchAll(/have ([0-9a-f]{40})/g))
          haves.push(m[1]!);
        res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-result', 'cache-control': 'no-cache' });
        res.end(Buffer.concat([pkt('NAK\n'), pkt(Buffer.concat([Buffer.from([1]), emptyPack()])), FLUSH]));
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}.git`,
    advertise(oid) {
      advertised = oid;
    },
    haves,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
