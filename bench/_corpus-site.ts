/**
 * A website built from a real corpus repository, for the website-import benchmark: `mkdocs build` of a copy of the
 * repository's project directory (a bare mkdocs.yml, site_url on this server so that its sitemap.xml has absolute
 * URLs), served on loopback under /docs/ with a robots.txt that names the sitemap and asks for `Crawl-delay`.
 * Every request is recorded (time, user agent, path) so that the benchmark can count each client's requests and
 * check the pacing it kept. (Not a benchmark: run.ts skips `_` files.)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { corpusDir } from '../src/project-root.js';
import { CONTENT_TYPES } from '../test/helpers/static-site.js';
import { projectDirectoryOf } from './_helpers.js';

export interface SiteRequest {
  at: number;
  agent: string;
  path: string;
  status: number;
}

export interface CorpusSite {
  base: string;
  startUrl: string;
  /** HTML pages mkdocs wrote (404.html left out). */
  pages: number;
  requests: SiteRequest[];
  stop(): Promise<void>;
}

/** The file of the built site answering `p` (a path below /docs/), or null. */
function fileFor(siteDir: string, p: string): string | null {
  try {
    const full = path.resolve(siteDir, decodeURIComponent(p.slice('/docs/'.length)));
    if (full !== siteDir && !full.startsWith(siteDir + path.sep)) return null;
    const st = statSync(full);
    if (st.isDirectory()) return statSync(path.join(full, 'index.html')).isFile() ? path.join(full, 'index.html') : null;
    return st.isFile() ? full : null;
  } catch {
    return null;
  }
}

function mkdocsSite(repo: string, work: string, siteUrl: string): number {
  cpSync(path.join(corpusDir(), repo, projectDirectoryOf(repo)), path.join(work, 'docs'), { recursive: true });
  writeFileSync(path.join(work, 'mkdocs.yml'), `site_name: bench\nsite_url: ${siteUrl}\ndocs_dir: docs\nsite_dir: site\n`);
  const r = spawnSync('mkdocs', ['build', '-q', '--clean'], { cwd: work, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkdocs build failed: ${(r.stderr ?? '').trim().split('\n').slice(-1)[0]}`);
  const found = spawnSync('find', [path.join(work, 'site'), '-name', '*.html', '-not', '-name', '404.html'], { encoding: 'utf8' });
  return found.stdout.trim().split('\n').filter(Boolean).length;
}

/** Builds the site of `repo` with mkdocs and serves it; robots.txt asks for `crawlDelayMs` between requests. */
export async function startCorpusSite(repo: string, crawlDelayMs: number): Promise<CorpusSite> {
  const work = mkdtempSync(path.join(tmpdir(), 'folio-bench-corpus-site-'));
  const siteDir = path.join(work, 'site');
  const requests: SiteRequest[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const answer = (status: number, type: string, body: string | Buffer) => {
      requests.push({ at: performance.now(), agent: String(req.headers['user-agent'] ?? ''), path: p, status });
      res.writeHead(status, { 'content-type': type }).end(body);
    };
    if (p === '/robots.txt')
      return answer(200, 'text/plain', `User-agent: *\nAllow: /\nCrawl-delay: ${crawlDelayMs / 1000}\nSitemap: ${base}/docs/sitemap.xml\n`);
    const file = p.startsWith('/docs/') ? fileFor(siteDir, p) : null;
    if (!file) return answer(404, 'text/plain', 'not found');
    answer(200, CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pages = mkdocsSite(repo, work, `${base}/docs/`);
  return {
    base,
    startUrl: `${base}/docs/`,
    pages,
    requests,
    stop: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Requests of one client (user agent matching `agent`) from index `from` on: count (and of them not found) and the shortest gap between two starts. */
export function pacing(requests: SiteRequest[], from: number, agent: RegExp): { requests: number; notFound: number; minGapMs: number | null } {
  const mine = requests.slice(from).filter((r) => agent.test(r.agent) && r.path !== '/robots.txt');
  let minGap: number | null = null;
  for (let i = 1; i < mine.length; i++) minGap = Math.min(minGap ?? Infinity, mine[i]!.at - mine[i - 1]!.at);
  return { requests: mine.length, notFound: mine.filter((r) => r.status === 404).length, minGapMs: minGap === null ? null : Math.round(minGap) };
}
