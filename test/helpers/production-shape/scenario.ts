/**
 * The production-shape run (issue 30): a deployment (deployment.ts: the cluster of cluster.ts — PostgreSQL,
 * Temporal, S3, 2 API processes — or one `folio start` with the embedded defaults), then for each worker count N in
 * turn, N `folio worker` processes (the cluster; the embedded deployment has its one worker and one phase) and a
 * phase of fresh spaces ("lanes", spread over several organizations) each driven through a sequence of git imports,
 * change requests, git exports, site publishes, OpenAPI imports and website imports (operations.ts, content-ops.ts;
 * the operations of one lane one after the other, the lanes at once). In the last phase the deployment's
 * disruptions happen a third and two thirds of the way through (a worker SIGKILLed, an API process or the whole
 * `folio start` SIGKILLed, each started again). At the end every operation is accounted for from the store
 * (check.ts): done, lost or duplicated; per phase, throughput and latency.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { checkOperations, checkSpaces, type Verdict } from './check.js';
import { changeRequestOp, startSiteServer, websiteImportOp } from './content-ops.js';
import { clusterDeployment, embeddedDeployment, type Deployment } from './deployment.js';
import { Apis, gitExportOp, gitImportOp, openapiOp, publishOp, specDocument, type Lane, type Operation, type OperationKind, type Query } from './operations.js';

export interface ShapeOptions {
  /** `cluster` (the default) or `embedded` (one `folio start`; `workers` must be [1]). */
  mode?: 'cluster' | 'embedded';
  /** Operations in all (split evenly over the phases). */
  operations: number;
  /** Worker counts, one phase each (e.g. [1, 2, 3]); the last one is disrupted (e.g. [1, 2, 3, 3]: a clean 3 too). */
  workers: number[];
  /** Organizations the spaces are spread over. */
  organizations: number;
  /** Spaces driven at once in each phase. */
  lanes: number;
  /** How long one operation may take before it counts as not finished. */
  operationTimeoutMs: number;
  /** Progress lines (stderr in the benchmark). */
  log?: (line: string) => void;
  /**
   * Variables every Folio process of the deployment gets besides its own (default none: production's): the tests
   * shorten there the waits of an operation whose worker was killed (FOLIO_GIT_HEARTBEAT_TIMEOUT_MS, …).
   */
  settings?: Record<string, string>;
}

export interface PhaseResult {
  workers: number;
  operations: number;
  wallMs: number;
  operationsPerMinute: number;
  medianLatencyMs: number;
  p95LatencyMs: number;
  byKind: Record<string, { count: number; medianLatencyMs: number }>;
  disruptions: string[];
  done: number;
  lost: number;
  duplicated: number;
}

export interface ShapeResult {
  mode: 'cluster' | 'embedded';
  deployment: string;
  operations: number;
  done: number;
  lost: number;
  duplicated: number;
  phases: PhaseResult[];
  problems: Array<{ phase: number; kind: OperationKind; spaceId: string; operationId?: string; state: string; reason?: string }>;
  spaceProblems: string[];
  clientErrors: Array<{ phase: number; kind: OperationKind; spaceId: string; observed: string; error?: string }>;
  loadAverage: { before: number[]; after: number[] };
  /** The deployment's own checks after the run (deployment.ts `checks`: Prometheus's scrapes, the Temporal UI). */
  deploymentChecks: { problems: string[]; seen: Record<string, unknown> };
}

export const KINDS: OperationKind[] = ['git-import', 'change-request', 'git-export', 'publish', 'openapi', 'website-import'];

/** The kind of a lane's operation `seq`: a git import first (the space needs content), then the cycle, lane i shifted by 2i. */
export function kindOf(lane: number, seq: number): OperationKind {
  return seq === 0 ? 'git-import' : KINDS[(seq + 2 * lane) % KINDS.length]!;
}

function quantile(xs: number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!);
}

/** Organizations made with the CLI, as an operator makes them; their ids and tokens. */
async function makeOrganizations(cluster: Deployment, n: number): Promise<Array<{ id: string; token: string }>> {
  const out: Array<{ id: string; token: string }> = [];
  for (let i = 0; i < n; i++) {
    const id = `shape-org-${i}`;
    await cluster.cli(['org', 'create', id, '--title', `Production shape ${i}`]);
    const token = /folio_[A-Za-z0-9_-]+/.exec(await cluster.cli(['token', 'create', '--org', id]))?.[0];
    if (!token) throw new Error(`no token for ${id}`);
    out.push({ id, token });
  }
  return out;
}

async function makeLanes(cluster: Deployment, apis: Apis, orgs: Array<{ id: string; token: string }>, phase: number, n: number): Promise<Lane[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, index) => {
      const org = orgs[(phase * n + index) % orgs.length]!;
      const space = await apis.call(org.token, 'POST', `/v1/orgs/${org.id}/spaces`, { title: `Shape ${phase}-${index}` });
      const site = await apis.call(org.token, 'POST', `/v1/orgs/${org.id}/sites`, { title: `Shape site ${phase}-${index}`, spaces: [space.body.id] });
      const web = await apis.call(org.token, 'POST', `/v1/orgs/${org.id}/spaces`, { title: `Shape web ${phase}-${index}` });
      const source = `p${phase}-l${index}-src`;
      const target = `p${phase}-l${index}-out`;
      await cluster.git.createBareRepo(source);
      await cluster.git.createBareRepo(target, { branch: 'main' });
      return {
        phase,
        index,
        organizationId: org.id,
        token: org.token,
        spaceId: space.body.id as string,
        siteId: site.body.id as string,
        source,
        target,
        tree: path.join(cluster.work, 'trees', source),
        version: 0,
        specSlug: `shape-${phase}-${index}`,
        specVersion: 0,
        webSpaceId: web.body.id as string,
        webRuns: 0,
      };
    }),
  );
}

/** The lane's operations one after the other (kindOf). */
async function driveLane(ctx: PhaseContext, lane: Lane, count: number, onDone: () => void): Promise<Operation[]> {
  const { cluster, apis, db, o } = ctx;
  const ops: Operation[] = [];
  let last: string | undefined;
  for (let seq = 0; seq < count; seq++) {
    const kind = kindOf(lane.index, seq);
    const op: Operation = {
      phase: lane.phase,
      lane: lane.index,
      seq,
      kind,
      spaceId: lane.spaceId,
      siteId: lane.siteId,
      startedAt: Date.now(),
      observed: 'pending',
    };
    try {
      if (kind === 'git-import') await gitImportOp(apis, cluster.git, lane, op, o.operationTimeoutMs, last);
      else if (kind === 'git-export') await gitExportOp(apis, cluster.git, lane, op, o.operationTimeoutMs, last);
      else if (kind === 'publish') await publishOp(apis, db, lane, op, o.operationTimeoutMs);
      else if (kind === 'change-request') await changeRequestOp(apis, lane, op);
      else if (kind === 'website-import') await websiteImportOp(apis, ctx.siteServer, lane, op, o.operationTimeoutMs);
      else await openapiOp(apis, ctx.specServer, lane, op, o.operationTimeoutMs);
    } catch (err) {
      op.observed = 'failed';
      op.error = (err as Error).message;
      op.latencyMs = Date.now() - op.startedAt;
    }
    last = op.timestamp ?? last;
    ops.push(op);
    onDone();
  }
  return ops;
}

/** The deployment's disruptions, each when its fraction of the phase's operations finished. */
function disrupter(cluster: Deployment, total: number, log: (l: string) => void) {
  const events: string[] = [];
  const pending: Array<Promise<void>> = [];
  let finished = 0;
  return {
    events,
    settled: () => Promise.all(pending),
    onDone() {
      finished++;
      for (const d of cluster.disruptions) {
        if (finished !== Math.max(1, Math.floor(total * d.at))) continue;
        const at = finished;
        pending.push(d.run(log).then((lines) => void events.push(...lines.map((l) => `${l} after ${at} of ${total} operations`))));
      }
    },
  };
}

function summarize(workers: number, ops: Operation[], verdicts: Verdict[], wallMs: number, disruptions: string[]): PhaseResult {
  const latencies = ops.map((o) => o.latencyMs ?? 0);
  const byKind: PhaseResult['byKind'] = {};
  for (const k of KINDS) {
    const of = ops.filter((o) => o.kind === k);
    byKind[k] = {
      count: of.length,
      medianLatencyMs: quantile(
        of.map((o) => o.latencyMs ?? 0),
        0.5,
      ),
    };
  }
  return {
    workers,
    operations: ops.length,
    wallMs: Math.round(wallMs),
    operationsPerMinute: Number(((ops.length / wallMs) * 60_000).toFixed(1)),
    medianLatencyMs: quantile(latencies, 0.5),
    p95LatencyMs: quantile(latencies, 0.95),
    byKind,
    disruptions,
    done: verdicts.filter((v) => v.state === 'done').length,
    lost: verdicts.filter((v) => v.state === 'lost').length,
    duplicated: verdicts.filter((v) => v.state === 'duplicated').length,
  };
}

interface PhaseContext {
  cluster: Deployment;
  apis: Apis;
  db: Query;
  orgs: Array<{ id: string; token: string }>;
  /** `http://127.0.0.1:<port>` of the server of OpenAPI documents (`/<slug>/v<n>.json`). */
  specServer: string;
  /** `http://127.0.0.1:<port>` of the loopback site website imports read (content-ops.ts). */
  siteServer: string;
  o: ShapeOptions;
  log: (l: string) => void;
}

/** One phase: N workers, fresh lanes, `count` operations; the workers are stopped (drained) at its end. */
async function runPhase(ctx: PhaseContext, phase: number, workers: number, count: number, disrupt: boolean) {
  const { cluster, apis, o, log } = ctx;
  await cluster.startPhase(workers);
  const lanes = await makeLanes(cluster, apis, ctx.orgs, phase, Math.min(o.lanes, count));
  log(`phase ${phase}: ${workers} worker(s), ${count} operations over ${lanes.length} spaces`);
  const d = disrupt ? disrupter(cluster, count, log) : null;
  const started = Date.now();
  const perLane = lanes.map((_, i) => Math.floor(count / lanes.length) + (i < count % lanes.length ? 1 : 0));
  let finished = 0;
  const onDone = () => {
    finished++;
    if (finished % 10 === 0) log(`phase ${phase}: ${finished}/${count}`);
    d?.onDone();
  };
  const ops = (await Promise.all(lanes.map((lane, i) => driveLane(ctx, lane, perLane[i]!, onDone)))).flat();
  const wallMs = Date.now() - started;
  await d?.settled();
  await cluster.endPhase();
  return { lanes, ops, wallMs, events: d?.events ?? [] };
}

/** The OpenAPI documents of the lanes' specs on loopback: `/<slug>/v<n>.json` is version n of spec <slug>. */
async function startSpecServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const m = /^\/([a-z0-9-]+)\/v(\d+)\.json$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(specDocument(m[1]!, Number(m[2])));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** Runs the whole scenario in a scratch directory (removed at the end). */
export async function runProductionShape(o: ShapeOptions): Promise<ShapeResult> {
  const log = o.log ?? (() => {});
  const mode = o.mode ?? 'cluster';
  if (mode === 'embedded' && o.workers.some((w) => w !== 1)) throw new Error('the embedded deployment (folio start) runs one worker: workers must be [1]');
  const work = await mkdtemp(path.join(os.tmpdir(), 'folio-shape-'));
  const before = os.loadavg().map((x) => Number(x.toFixed(2)));
  let cluster: Deployment | undefined;
  const [specs, site] = await Promise.all([startSpecServer(), startSiteServer()]);
  try {
    cluster = mode === 'embedded' ? await embeddedDeployment(work, o.settings) : await clusterDeployment(work, o.settings);
    const db = cluster.query;
    log(`deployment up: ${cluster.describe}`);
    const apis = new Apis(cluster.apiBases, cluster.patienceMs);
    const orgs = await makeOrganizations(cluster, o.organizations);
    const ctx: PhaseContext = { cluster, apis, db, orgs, specServer: specs.url, siteServer: site.url, o, log };
    const runs = [];
    for (const [phase, workers] of o.workers.entries()) {
      const count = Math.floor(o.operations / o.workers.length) + (phase < o.operations % o.workers.length ? 1 : 0);
      const last = phase === o.workers.length - 1;
      runs.push({ workers, ...(await runPhase(ctx, phase, workers, count, last && (workers >= 2 || mode === 'embedded'))) });
    }
    const accounted = await account(ctx, runs, before);
    return { mode, deployment: cluster.describe, ...accounted, deploymentChecks: await cluster.checks() };
  } finally {
    await cluster?.close();
    await Promise.all([specs.server, site.server].map((s) => new Promise((r) => s.close(r))));
    await rm(work, { recursive: true, force: true });
  }
}

async function account(
  ctx: PhaseContext,
  runs: Array<{ workers: number; lanes: Lane[]; ops: Operation[]; wallMs: number; events: string[] }>,
  before: number[],
) {
  const lanes = runs.flatMap((r) => r.lanes);
  const ops = runs.flatMap((r) => r.ops);
  const verdicts = await checkOperations(ctx.db, ctx.cluster.git, ctx.apis, lanes, ops);
  const phases = runs.map((r) =>
    summarize(
      r.workers,
      r.ops,
      verdicts.filter((v) => r.ops.includes(v.op)),
      r.wallMs,
      r.events,
    ),
  );
  return {
    operations: ops.length,
    done: verdicts.filter((v) => v.state === 'done').length,
    lost: verdicts.filter((v) => v.state === 'lost').length,
    duplicated: verdicts.filter((v) => v.state === 'duplicated').length,
    phases,
    problems: verdicts
      .filter((v) => v.state !== 'done')
      .map((v) => ({ phase: v.op.phase, kind: v.op.kind, spaceId: v.op.spaceId, operationId: v.op.operationId, state: v.state, reason: v.reason })),
    spaceProblems: await checkSpaces(ctx.db, lanes, verdicts),
    // Done in the store though the client saw an error (an answer lost to a restart): not lost, but worth knowing.
    clientErrors: verdicts
      .filter((v) => v.state === 'done' && v.op.observed !== 'done')
      .map((v) => ({ phase: v.op.phase, kind: v.op.kind, spaceId: v.op.spaceId, observed: v.op.observed, error: v.op.error })),
    loadAverage: { before, after: os.loadavg().map((x) => Number(x.toFixed(2))) },
  };
}
