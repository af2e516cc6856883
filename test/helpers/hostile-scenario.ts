/**
 * The scenario of issue 25, item 1, on a running `folio start` (./folio-service.ts): the nine-page hostile repository
 * imported by one organization, a normal repository imported by another organization a few seconds later, optionally
 * on a machine loaded by `stress-ng --cpu 2`; meanwhile a few API routes are polled (every answer's status kept) and
 * the worker process is watched. Shared by the end-to-end test and the benchmark (bench/hostile-repository.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GitServer } from './git-server.js';
import { childrenByRole, gitImport, logRecords, newOrganization, type ApiClient, type FolioService, type GitRequestEntry } from './folio-service.js';
import { hostileRepository, normalRepository } from './hostile-pages.js';

/** Writes `files` under `dir` and makes them the `main` branch of the bare repository `name`; returns its URL. */
export async function serveRepository(server: GitServer, work: string, name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(work, `${name}-src`);
  for (const [p, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await writeFile(path.join(dir, p), text);
  }
  await server.createBareRepo(name, { fromDir: dir, branch: 'main', message: name });
  return server.url(name);
}

/** The hostile and the normal repository on `server`. */
export async function serveScenarioRepositories(server: GitServer, work: string, normalPages = 40): Promise<{ hostile: string; normal: string }> {
  return {
    hostile: await serveRepository(server, work, 'hostile', hostileRepository()),
    normal: await serveRepository(server, work, 'normal', normalRepository(normalPages)),
  };
}

/** `stress-ng --cpu <n>`, bounded by `--timeout` (it ends by itself even if this process dies). */
export function startStress(cpus: number, timeoutS: number): ChildProcess {
  const child = spawn('stress-ng', ['--cpu', String(cpus), '--timeout', `${timeoutS}s`, '--quiet'], { stdio: 'ignore' });
  child.on('error', () => undefined);
  return child;
}

export async function stopStress(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface ApiPoll {
  /** Answers by status (`'error'`: no HTTP answer at all). */
  byStatus: Record<string, number>;
  /** Answers of 500 and more other than 503 (with Retry-After), and requests that got no answer. */
  failures: Array<{ route: string; status: number | 'error'; body: string }>;
  /** How long each answer took, in milliseconds. */
  latenciesMs: number[];
  stop(): Promise<void>;
}

/** Polls `routes` (each in turn, about every `everyMs`) with `api` until stopped. */
export function pollApi(api: ApiClient, routes: string[], everyMs = 250): ApiPoll {
  const poll: ApiPoll = { byStatus: {}, failures: [], latenciesMs: [], stop: async () => undefined };
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const route = routes[i % routes.length]!;
      const started = performance.now();
      try {
        const res = await fetch(api.base + route, { headers: { authorization: `Bearer ${api.token}` }, signal: AbortSignal.timeout(60_000) });
        const body = await res.text();
        poll.latenciesMs.push(performance.now() - started);
        poll.byStatus[res.status] = (poll.byStatus[res.status] ?? 0) + 1;
        if (res.status >= 500 && !(res.status === 503 && res.headers.get('retry-after')))
          poll.failures.push({ route, status: res.status, body: body.slice(0, 300) });
      } catch (err) {
        poll.byStatus.error = (poll.byStatus.error ?? 0) + 1;
        poll.failures.push({ route, status: 'error', body: String(err) });
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  poll.stop = async () => {
    stopped = true;
    await loop;
  };
  return poll;
}

export interface TimedImport {
  entry: GitRequestEntry | undefined;
  ms: number;
  /** The import activity's phase timings (`git import stored`, logged at LOG_LEVEL=info), when it stored a revision. */
  phasesMs?: Record<string, number>;
}

/** The phase timings the worker logged for the import of `spaceId` (LOG_LEVEL=info), if any. */
export function importPhases(s: FolioService, spaceId: string): Record<string, number> | undefined {
  return logRecords(s, 'git import stored').find((r) => r.spaceId === spaceId)?.timingsMs as Record<string, number> | undefined;
}

/** A new organization `orgId`, a space in it, and the import of `url` into it, timed from the request. */
export async function importIntoNewOrganization(
  s: FolioService,
  orgId: string,
  url: string,
  timeoutMs: number,
): Promise<TimedImport & { api: ApiClient; spaceId: string }> {
  const api = await newOrganization(s, orgId);
  const spaceId = (await api.call('POST', `/v1/orgs/${orgId}/spaces`, { title: orgId })).id as string;
  const started = performance.now();
  const entry = await gitImport(api, spaceId, url, timeoutMs);
  const ms = performance.now() - started;
  const phasesMs = importPhases(s, spaceId);
  return { entry, ms, api, spaceId, ...(phasesMs ? { phasesMs } : {}) };
}

export interface LoadedRun {
  hostile: TimedImport & { spaceId: string; api: ApiClient };
  normal: TimedImport & { spaceId: string; api: ApiClient };
  poll: ApiPoll;
  workerBefore: number | undefined;
  workerAfter: number | undefined;
  /** Lines in which the supervisor reported a child's unexpected exit during the run. */
  exits: string[];
}

/**
 * One loaded run: `stress-ng --cpu 2` (unless `stress` is false), the hostile import by a new organization, the normal
 * one by another new organization `normalDelayMs` later, the API polled by both organizations throughout.
 */
export async function loadedRun(
  s: FolioService,
  urls: { hostile: string; normal: string },
  options: { tag: string; stress?: boolean; hostileTimeoutMs: number; normalTimeoutMs: number; normalDelayMs?: number },
): Promise<LoadedRun> {
  const pid = s.child.pid!;
  const workerBefore = childrenByRole(pid).get('worker');
  const outputFrom = s.output.length;
  const stress = options.stress === false ? undefined : startStress(2, Math.ceil((options.hostileTimeoutMs + options.normalTimeoutMs) / 1000) + 60);
  try {
    const hostileApi = await newOrganization(s, `hostile-${options.tag}`);
    const hostileSpace = (await hostileApi.call('POST', `/v1/orgs/hostile-${options.tag}/spaces`, { title: 'Hostile' })).id as string;
    const normalApi = await newOrganization(s, `normal-${options.tag}`);
    const normalSpace = (await normalApi.call('POST', `/v1/orgs/normal-${options.tag}/spaces`, { title: 'Normal' })).id as string;
    const polls = [
      pollApi(hostileApi, [`/v1/orgs/hostile-${options.tag}/spaces`, `/v1/spaces/${hostileSpace}/git/info`, `/v1/spaces/${hostileSpace}/content`]),
      pollApi(normalApi, [`/v1/orgs/normal-${options.tag}/spaces`, `/v1/spaces/${normalSpace}/git/info`, `/v1/spaces/${normalSpace}`]),
    ];
    const started = performance.now();
    const hostile = gitImport(hostileApi, hostileSpace, urls.hostile, options.hostileTimeoutMs).then((entry) => ({ entry, ms: performance.now() - started }));
    await new Promise((r) => setTimeout(r, options.normalDelayMs ?? 3000));
    const normalStarted = performance.now();
    const normal = await gitImport(normalApi, normalSpace, urls.normal, options.normalTimeoutMs).then((entry) => ({
      entry,
      ms: performance.now() - normalStarted,
    }));
    const hostileDone = await hostile;
    await Promise.all(polls.map((p) => p.stop()));
    const poll: ApiPoll = {
      byStatus: {},
      failures: polls.flatMap((p) => p.failures),
      latenciesMs: polls.flatMap((p) => p.latenciesMs),
      stop: async () => undefined,
    };
    for (const p of polls) for (const [k, n] of Object.entries(p.byStatus)) poll.byStatus[k] = (poll.byStatus[k] ?? 0) + n;
    const phases = (spaceId: string) => {
      const phasesMs = importPhases(s, spaceId);
      return phasesMs ? { phasesMs } : {};
    };
    return {
      hostile: { ...hostileDone, spaceId: hostileSpace, api: hostileApi, ...phases(hostileSpace) },
      normal: { ...normal, spaceId: normalSpace, api: normalApi, ...phases(normalSpace) },
      poll,
      workerBefore,
      workerAfter: childrenByRole(pid).get('worker'),
      exits: s.output.slice(outputFrom).filter((l) => l.includes('exited unexpectedly')),
    };
  } finally {
    if (stress) await stopStress(stress);
  }
}
