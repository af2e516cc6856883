/**
 * The operations of the production-shape run, as a client of the HTTP API drives them: git imports (a new commit
 * pushed to the space's repository on the loopback git server first, so each import has content of its own), git
 * exports (each to a branch of its own in another repository), site publishes and OpenAPI imports (a new version
 * of the lane's spec by URL, served on loopback). Requests go round robin over the
 * API processes; one that does not answer (restarting) is retried on the next with the same body, so a git request
 * keeps its timestamp and so its request id. Every git import is also sent a second time to another API process, as
 * a client that timed out would retry it: applied twice, it would show as two revisions of one commit.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runGit, type GitServer } from '../git-server.js';

export type OperationKind = 'git-import' | 'change-request' | 'git-export' | 'publish' | 'openapi' | 'website-import';

export interface Lane {
  phase: number;
  index: number;
  organizationId: string;
  token: string;
  spaceId: string;
  siteId: string;
  /** Name of the space's source repository on the git server, and of the repository it exports to. */
  source: string;
  target: string;
  tree: string;
  /** Version of the source repository's content last pushed (0: none yet). */
  version: number;
  /** The slug of the lane's OpenAPI spec, and the version of it last asked for. */
  specSlug: string;
  specVersion: number;
  /** The space website imports go into (their runs replace its content), and the runs made so far. */
  webSpaceId: string;
  webRuns: number;
  /** The change request merged since the last git import: the file it edited, its text and its marker line. */
  edit?: Edit;
}

export interface Edit {
  file: string;
  text: string;
  marker: string;
}

export interface Operation {
  phase: number;
  lane: number;
  seq: number;
  kind: OperationKind;
  spaceId: string;
  siteId: string;
  /** The git request's timestamp (its request id follows from it). */
  timestamp?: string;
  /** `X-Folio-Operation-Id` of the answer. */
  operationId?: string;
  /** Import: the commit pushed; export: the branch and commit message; publish: the space's revision; openapi: `version` the spec's. */
  commit?: string;
  version?: number;
  branch?: string;
  message?: string;
  revisionId?: string;
  /** Change request: its id and the line it added (exactly once in the merged page); export: the edit it must carry. */
  changeRequestId?: string;
  marker?: string;
  edit?: Edit;
  /** Website import: the start URL and the run's id. */
  url?: string;
  runId?: string;
  startedAt: number;
  latencyMs?: number;
  /** What the client saw: `done`, `failed` (with the error) or `pending` (not finished by the deadline). */
  observed: 'done' | 'failed' | 'pending';
  error?: string;
}

function parseBody(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** Round robin over the API processes; a connection refused or a 502/503 goes to the next one. */
export class Apis {
  private next = 0;
  /** `patienceMs`: how long a request is tried again while no process answers (a whole deployment restarting). */
  constructor(
    readonly bases: string[],
    readonly patienceMs = 120_000,
  ) {}

  /** The answer of the first process that answers (`only`: that process, retried until it answers). */
  async request(
    token: string,
    method: string,
    p: string,
    body?: unknown,
    only?: number,
  ): Promise<{ status: number; body: any; headers: Headers; api: number }> {
    const deadline = Date.now() + this.patienceMs;
    let last: unknown;
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      const i = only ?? this.next++ % this.bases.length;
      try {
        const res = await fetch(this.bases[i] + p, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(60_000),
        });
        const text = await res.text();
        if (res.status === 502 || res.status === 503) throw new Error(`${res.status} ${text.slice(0, 200)}`);
        return { status: res.status, body: parseBody(text), headers: res.headers, api: i };
      } catch (err) {
        last = err;
        await new Promise((r) => setTimeout(r, Math.min(2000, 100 * 2 ** Math.min(attempt, 5))));
      }
    }
    throw new Error(`${method} ${p}: no API process answered: ${(last as Error)?.message}`);
  }

  async call(token: string, method: string, p: string, body?: unknown, only?: number): Promise<{ body: any; headers: Headers; api: number }> {
    const res = await this.request(token, method, p, body, only);
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res;
  }
}

export const readmeOf = (lane: Lane, version: number) => `# Space ${lane.phase}-${lane.index}\n\nVersion ${version} of space ${lane.phase}-${lane.index}.\n`;
export const pageOf = (lane: Lane, n: number) => `# Page ${n}\n\nAdded in version ${n} of space ${lane.phase}-${lane.index}.\n`;

/** The files of version `version` of a lane's repository (no SUMMARY.md: every markdown file is a page). */
export function filesOf(lane: Lane, version: number): Map<string, string> {
  const files = new Map([['README.md', readmeOf(lane, version)]]);
  for (let n = 1; n <= version; n++) files.set(`page-${n}.md`, pageOf(lane, n));
  return files;
}

/** Writes version `lane.version + 1` of the lane's repository, commits and pushes it; the commit's id. */
async function pushNextVersion(lane: Lane, git: GitServer): Promise<{ commit: string; version: number }> {
  const version = lane.version + 1;
  await mkdir(lane.tree, { recursive: true });
  if (version === 1) await runGit(['init', '-q', '-b', 'main'], { cwd: lane.tree });
  for (const [file, text] of filesOf(lane, version)) await writeFile(path.join(lane.tree, file), text);
  await runGit(['add', '-A'], { cwd: lane.tree });
  await runGit(['commit', '-q', '-m', `version ${version}`], { cwd: lane.tree });
  await runGit(['push', '-q', '--force', path.join(git.root, `${lane.source}.git`), 'HEAD:refs/heads/main'], { cwd: lane.tree });
  lane.version = version;
  lane.edit = undefined;
  return { commit: (await runGit(['rev-parse', 'HEAD'], { cwd: lane.tree })).trim(), version };
}

interface RequestEntry {
  timestamp: string;
  status: string;
  code?: string;
  message?: string;
}

/** Polls git/info until the request of `timestamp` left `queued` and `running`; its entry, or undefined at the deadline. */
async function waitGitRequest(apis: Apis, lane: Lane, timestamp: string, deadline: number): Promise<RequestEntry | undefined> {
  while (Date.now() < deadline) {
    const info = await apis.request(lane.token, 'GET', `/v1/spaces/${lane.spaceId}/git/info`);
    const mine = (info.body?.requests as RequestEntry[] | undefined)?.find((r) => Date.parse(r.timestamp) === Date.parse(timestamp));
    if (mine && mine.status !== 'queued' && mine.status !== 'running') return mine;
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
}

/** A fresh timestamp, later than every earlier one of the lane (the queue drops a request older than the last). */
function timestampAfter(previous: string | undefined): string {
  const now = Date.now();
  return new Date(previous ? Math.max(now, Date.parse(previous) + 1) : now).toISOString();
}

function finish(op: Operation, entry: RequestEntry | undefined): Operation {
  op.latencyMs = Date.now() - op.startedAt;
  if (!entry) op.observed = 'pending';
  else if (entry.status === 'succeeded') op.observed = 'done';
  else {
    op.observed = 'failed';
    op.error = `${entry.status} ${entry.code ?? ''} ${entry.message ?? ''}`.trim();
  }
  return op;
}

export async function gitImportOp(apis: Apis, git: GitServer, lane: Lane, op: Operation, timeoutMs: number, last?: string): Promise<Operation> {
  const { commit, version } = await pushNextVersion(lane, git);
  Object.assign(op, { commit, version, timestamp: timestampAfter(last) });
  op.startedAt = Date.now();
  const body = { url: git.url(lane.source), ref: 'refs/heads/main', timestamp: op.timestamp };
  const first = await apis.call(lane.token, 'POST', `/v1/spaces/${lane.spaceId}/git/import`, body);
  op.operationId = first.headers.get('x-folio-operation-id') ?? undefined;
  // The client's retry of the same request, through the other API process.
  await apis.call(lane.token, 'POST', `/v1/spaces/${lane.spaceId}/git/import`, body, (first.api + 1) % apis.bases.length);
  return finish(op, await waitGitRequest(apis, lane, op.timestamp!, Date.now() + timeoutMs));
}

export async function gitExportOp(apis: Apis, git: GitServer, lane: Lane, op: Operation, timeoutMs: number, last?: string): Promise<Operation> {
  Object.assign(op, {
    timestamp: timestampAfter(last),
    branch: `export-${op.seq}`,
    message: `Export ${op.seq} of space ${lane.phase}-${lane.index}`,
    version: lane.version,
    edit: lane.edit,
  });
  op.startedAt = Date.now();
  const body = { url: git.url(lane.target), ref: `refs/heads/${op.branch}`, commitMessage: op.message, timestamp: op.timestamp };
  const res = await apis.call(lane.token, 'POST', `/v1/spaces/${lane.spaceId}/git/export`, body);
  op.operationId = res.headers.get('x-folio-operation-id') ?? undefined;
  return finish(op, await waitGitRequest(apis, lane, op.timestamp!, Date.now() + timeoutMs));
}

interface SiteBody {
  folioPublishing?: { last?: { status: string; startedAt: string; publicationId: string | null; error?: { code: string; message: string } | null } | null };
}

/** Runs a query on the deployment's database (the checks read the store as well as the API). */
export type Query = (text: string, params: unknown[]) => Promise<Array<Record<string, any>>>;

export async function publishOp(apis: Apis, db: Query, lane: Lane, op: Operation, timeoutMs: number): Promise<Operation> {
  const space = await apis.call(lane.token, 'GET', `/v1/spaces/${lane.spaceId}`);
  op.revisionId = space.body.revision as string;
  op.startedAt = Date.now();
  const sitePath = `/v1/orgs/${lane.organizationId}/sites/${lane.siteId}`;
  const res = await apis.call(lane.token, 'POST', `${sitePath}/publish`, {});
  op.operationId = res.headers.get('x-folio-operation-id') ?? undefined;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const site = (await apis.call(lane.token, 'GET', sitePath)).body as SiteBody;
    const last = site.folioPublishing?.last;
    if (last && last.status !== 'running' && Date.parse(last.startedAt) >= op.startedAt - 1000) {
      const published =
        last.status === 'succeeded' && last.publicationId ? await publishedRevisions(retrying(db, deadline), last.publicationId, lane.spaceId) : [];
      if (published.includes(op.revisionId)) return finish(op, { timestamp: '', status: 'succeeded' });
      return finish(op, {
        timestamp: '',
        status: last.status,
        message: last.error?.message ?? `published revisions [${published.join(', ')}], not ${op.revisionId}`,
      });
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return finish(op, undefined);
}

/** `db`, its query tried again until `deadline` while the database does not answer (the embedded one restarting). */
function retrying(db: Query, deadline: number): Query {
  return async (text, params) => {
    for (;;) {
      try {
        return await db(text, params);
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
}

/** The revisions of `spaceId` that publication `publicationId` froze (the store's publication row). */
async function publishedRevisions(db: Query, publicationId: string, spaceId: string): Promise<string[]> {
  const rows = await db('SELECT structure FROM site_publications WHERE id = $1', [publicationId]);
  const raw = rows[0]?.structure;
  const structure = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { siteSpaces?: Array<{ spaceId: string; revisionId: string | null }> } | undefined;
  return (structure?.siteSpaces ?? []).filter((s) => s.spaceId === spaceId).map((s) => s.revisionId ?? '');
}

/** The OpenAPI document the spec server answers for version `version` of a lane's spec. */
export function specDocument(slug: string, version: number): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: `Spec ${slug}`, version: `${version}.0.0` },
    paths: { [`/items/v${version}`]: { get: { summary: `Items of version ${version}`, responses: { '200': { description: 'the items' } } } } },
  });
}

interface SpecBody {
  processingState?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: string;
  lastVersion?: string;
}

/** A new version of the lane's spec (its URL on the spec server) PUT, then the spec polled until processed after it. */
export async function openapiOp(apis: Apis, specServer: string, lane: Lane, op: Operation, timeoutMs: number): Promise<Operation> {
  op.version = ++lane.specVersion;
  op.startedAt = Date.now();
  const specPath = `/v1/orgs/${lane.organizationId}/openapi/${lane.specSlug}`;
  const res = await apis.call(lane.token, 'PUT', specPath, { source: { url: `${specServer}/${lane.specSlug}/v${op.version}.json` } });
  op.operationId = res.headers.get('x-folio-operation-id') ?? undefined;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const spec = (await apis.call(lane.token, 'GET', specPath)).body as SpecBody;
    if (spec.processingState === 'complete' && spec.lastProcessedAt && Date.parse(spec.lastProcessedAt) >= op.startedAt - 1000) {
      if (spec.lastProcessErrorCode || !spec.lastVersion)
        return finish(op, { timestamp: '', status: 'failed', code: spec.lastProcessErrorCode ?? 'NO_VERSION' });
      return finish(op, { timestamp: '', status: 'succeeded' });
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return finish(op, undefined);
}
