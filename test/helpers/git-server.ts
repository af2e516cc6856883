/**
 * A real git smart-HTTP server for tests and benchmarks: a Node http server on 127.0.0.1 that
 * runs `git http-backend` as a CGI program over a directory of bare repositories, with optional
 * basic auth. Both isomorphic-git and the `git` CLI can clone, fetch and push through it.
 */
import { spawn, execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, mkdir, rm, writeFile, readFile, chmod, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';

const execFileP = promisify(execFile);
// GIT_HTTP_BACKEND (tests only): the `git http-backend` CGI to serve repositories with.
const HTTP_BACKEND = process.env.GIT_HTTP_BACKEND ?? '/usr/lib/git-core/git-http-backend';

export interface GitServerOptions {
  auth?: { username: string; password: string };
  /** Directory of bare repositories (default: a new temporary directory, removed on stop). */
  root?: string;
}

export interface GitServer {
  /** `http://127.0.0.1:<port>/<name>.git`, without credentials. */
  url(name: string): string;
  /** The same URL with the server's credentials as userinfo (the plain URL when there is no auth). */
  authedUrl(name: string): string;
  readonly root: string;
  readonly port: number;
  /** Creates `<root>/<name>.git`; with `fromDir`, commits that directory's files (or pushes its branch when it is a git work tree). */
  createBareRepo(name: string, options?: { fromDir?: string; branch?: string; message?: string }): Promise<string>;
  /** Installs a pre-receive hook that declines every update of `branch`. */
  protectBranch(name: string, branch: string): Promise<void>;
  /** Requests served so far (method and path), for assertions about the protocol. */
  readonly requests: Array<{ method: string; path: string; status: number; service?: string }>;
  stop(): Promise<void>;
}

/** Environment for git CLI child processes: no user or system config, fixed identity. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    // FOLIO_TEST_GIT_HOME (tests only): HOME of the git CLI, default the temporary directory.
    HOME: process.env.FOLIO_TEST_GIT_HOME ?? tmpdir(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Folio Test',
    GIT_AUTHOR_EMAIL: 'test@folio.invalid',
    GIT_COMMITTER_NAME: 'Folio Test',
    GIT_COMMITTER_EMAIL: 'test@folio.invalid',
    ...extra,
  };
}

export async function runGit(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<string> {
  const { stdout } = await execFileP('git', args, { cwd: options.cwd, env: gitEnv(options.env), maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  return stdout;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function checkAuth(req: IncomingMessage, auth: GitServerOptions['auth']): string | null | undefined {
  if (!auth) return undefined;
  const header = req.headers.authorization ?? '';
  const m = /^Basic\s+(.+)$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  const user = decoded.slice(0, i);
  const pass = decoded.slice(i + 1);
  return user === auth.username && pass === auth.password ? user : null;
}

export async function startGitServer(options: GitServerOptions = {}): Promise<GitServer> {
  const ownRoot = options.root === undefined;
  const root = options.root ?? (await mkdtemp(path.join(tmpdir(), 'folio-git-server-')));
  await mkdir(root, { recursive: true });
  const requests: GitServer['requests'] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const user = checkAuth(req, options.auth);
    if (user === null) {
      requests.push({ method: req.method ?? 'GET', path: u.pathname, status: 401, ...serviceOf(u) });
      req.resume();
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="folio-test"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    let body = await readBody(req);
    if ((req.headers['content-encoding'] ?? '').toLowerCase() === 'gzip') body = gunzipSync(body);
    const env: NodeJS.ProcessEnv = {
      ...gitEnv(),
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.receivepack',
      GIT_CONFIG_VALUE_0: 'true',
      GIT_CONFIG_KEY_1: 'uploadpack.allowReachableSHA1InWant',
      GIT_CONFIG_VALUE_1: 'true',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(u.pathname),
      QUERY_STRING: u.search.replace(/^\?/, ''),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      CONTENT_LENGTH: String(body.length),
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      REMOTE_USER: user ?? 'anonymous',
      SERVER_PROTOCOL: 'HTTP/1.1',
      GATEWAY_INTERFACE: 'CGI/1.1',
    };
    if (req.headers['git-protocol']) env.HTTP_GIT_PROTOCOL = String(req.headers['git-protocol']);
    const child = spawn(HTTP_BACKEND, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    res.on('close', () => {
      if (child.exitCode === null) child.kill('SIGTERM');
    });
    child.stdin.on('error', () => {});
    child.stdin.end(body);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    let head = Buffer.alloc(0);
    let headersDone = false;
    let status = 200;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      let end = head.indexOf('\r\n\r\n');
      let sepLen = 4;
      if (end < 0) {
        end = head.indexOf('\n\n');
        sepLen = 2;
      }
      if (end < 0) return;
      headersDone = true;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i <= 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = parseInt(value, 10) || 200;
        else headers[name] = value;
      }
      requests.push({ method: req.method ?? 'GET', path: u.pathname, status, ...serviceOf(u) });
      res.writeHead(status, headers);
      const rest = head.subarray(end + sepLen);
      if (rest.length) res.write(rest);
    });
    child.on('close', (code) => {
      if (!headersDone) {
        requests.push({ method: req.method ?? 'GET', path: u.pathname, status: 500, ...serviceOf(u) });
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`git http-backend failed (${code}): ${stderr}`);
        return;
      }
      res.end();
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;

  function repoDir(name: string): string {
    if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(name)) throw new Error(`bad repository name ${name}`);
    return path.join(root, `${name}.git`);
  }

  return {
    root,
    port,
    requests,
    url: (name) => `${base}/${name}.git`,
    authedUrl: (name) => {
      if (!options.auth) return `${base}/${name}.git`;
      const u = new URL(`${base}/${name}.git`);
      u.username = encodeURIComponent(options.auth.username);
      u.password = encodeURIComponent(options.auth.password);
      return u.toString();
    },
    async createBareRepo(name, opts = {}) {
      const dir = repoDir(name);
      const branch = opts.branch ?? 'main';
      await runGit(['init', '--quiet', '--bare', `--initial-branch=${branch}`, dir]);
      await runGit(['config', 'http.receivepack', 'true'], { cwd: dir });
      if (opts.fromDir) {
        let isRepo = false;
        try {
          await access(path.join(opts.fromDir, '.git'));
          isRepo = true;
        } catch {
          /* plain directory */
        }
        if (isRepo) {
          await runGit(['push', '--quiet', dir, `HEAD:refs/heads/${branch}`], { cwd: opts.fromDir });
        } else {
          // Commit the directory's files straight into the bare repository (the directory is only read).
          const index = path.join(dir, `folio-import-${process.pid}.index`);
          const env = { GIT_DIR: dir, GIT_WORK_TREE: opts.fromDir, GIT_INDEX_FILE: index };
          await runGit(['add', '--all', '--force', '.'], { cwd: opts.fromDir, env });
          await runGit(['commit', '--quiet', '--no-verify', '-m', opts.message ?? `Import ${path.basename(opts.fromDir)}`], { cwd: opts.fromDir, env });
          await rm(index, { force: true });
        }
      }
      return dir;
    },
    async protectBranch(name, branch) {
      const dir = repoDir(name);
      const list = path.join(dir, 'folio-protected-refs');
      let existing = '';
      try {
        existing = await readFile(list, 'utf8');
      } catch {
        existing = '';
      }
      await writeFile(list, `${existing}refs/heads/${branch}\n`);
      const hook = path.join(dir, 'hooks', 'pre-receive');
      await mkdir(path.dirname(hook), { recursive: true });
      await writeFile(
        hook,
        `#!/bin/sh\nwhile read old new ref; do\n  if grep -qxF "$ref" '${list}'; then\n    echo "$ref is a protected branch" >&2\n    exit 1\n  fi\ndone\nexit 0\n`,
      );
      await chmod(hook, 0o755);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownRoot) await rm(root, { recursive: true, force: true });
    },
  };
}

/** The `service` query parameter of a smart-HTTP request (the advertisement's: upload-pack or receive-pack). */
function serviceOf(u: URL): { service?: string } {
  const service = u.searchParams.get('service');
  return service ? { service } : {};
}
