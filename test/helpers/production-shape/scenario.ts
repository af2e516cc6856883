/**
 * The production-shape run (issue 30): the deployment of cluster.ts (PostgreSQL, Temporal, S3, 2 API processes),
 * then for each worker count N in turn, N `folio worker` processes and a phase of fresh spaces ("lanes", spread
 * over several organizations) each driven through a sequence of git imports, git exports, site publishes and OpenAPI imports
 * (operations.ts; the operations of one lane one after the other, the lanes at once). In the last phase (when it
 * has 2 workers or more) one worker is SIGKILLed a third of the way through and started again, and one API
 * process is SIGKILLed two thirds of the way through and started again on its port. At the end every operation is
 * accounted for from the store (check.ts): done, lost or duplicated; per phase, throughput and latency.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCluster, type Cluster } from './cluster.js';
import { checkOperations, checkSpaces, type Verdict } from './check.js';
import { Apis, gitExportOp, gitImportOp, openapiOp, publishOp, specDocument, type Lane, type Operation, type OperationKind, type Query } from './operations.js';

export interface ShapeOptions {
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
  operations: number;
  done: number;
  lost: number;
  duplicated: number;
  phases: PhaseResult[];
  problems: Array<{ phase: number; kind: OperationKind; spaceId: string; operationId?: string; state: string; reason?: string }>;
  spaceProblems: string[];
  loadAverage: { before: number[]; after: number[] };
}

const KINDS: OperationKind[] = ['git-import', 'git-export', 'publish', 'openapi'];

function quantile(xs: number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!);
}

/** Organizations made with the CLI, as an operator makes them; their ids and tokens. */
async function makeOrganizations(cluster: Cluster, n: number): Promise<Array<{ id: string; token: string }>> {
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

async function makeLanes(cluster: Cluster, apis: Apis, orgs: Array<{ id: string; token: string }>, phase: number, n: number): Promise<Lane[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, index) => {
      const org = orgs[(phase * n + index) % orgs.length]!;
      const space = await apis.call(org.token, 'POST', `/v1/orgs/${org.id}/spaces`, { title: `Shape ${phase}-${index}` });
      const site = await apis.call(org.token, 'POST', `/v1/orgs/${org.id}/sites`, { title: `Shape site ${phase}-${index}`, spaces: [space.body.id] });
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
      };
    }),
  );
}

/** The lane's operations one after the other: import, export, publish, OpenAPI import, import, … */
async function driveLane(ctx: PhaseContext, lane: Lane, count: number, onDone: () => void): Promise<Operation[]> {
  const { cluster, apis, db, o } = ctx;
  const ops: Operation[] = [];
  let last: string | undefined;
  for (let seq = 0; seq < count; seq++) {
    const kind = KINDS[seq % KINDS.length]!;
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

/** SIGKILL of worker 0 at a third of the phase (started again 5 s later), of API 1 at two thirds (started again at once). */
function disrupter(cluster: Cluster, total: number, log: (l: string) => void) {
  const events: string[] = [];
  const pending: Array<Promise<void>> = [];
  let finished = 0;
  const at = (what: string) => events.push(`${what} after ${finished} of ${total} operations`);
  return {
    events,
    settled: () => Promise.all(pending),
    onDone() {
      finished++;
      if (finished === Math.floor(total / 3)) {
        const w = cluster.workers[0]!;
        at(`SIGKILL worker 0 (pid ${w.child.pid})`);
        log(events.at(-1)!);
        pending.push(
          cluster
            .kill(w)
            .then(() => new Promise((r) => setTimeout(r, 5000)))
            .then(() => cluster.startWorker(0).then(() => void at('worker 0 started again'))),
        );
      }
      if (finished === Math.floor((2 * total) / 3) && cluster.apis.length > 1) {
        const a = cluster.apis[1]!;
        at(`SIGKILL api 1 (pid ${a.child.pid})`);
        log(events.at(-1)!);
        pending.push(cluster.kill(a).then(() => cluster.startApi(1, a.port).then(() => void at('api 1 started again'))));
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
  cluster: Cluster;
  apis: Apis;
  db: Query;
  orgs: Array<{ id: string; token: string }>;
  /** `http://127.0.0.1:<port>` of the server of OpenAPI documents (`/<slug>/v<n>.json`). */
  specServer: string;
  o: ShapeOptions;
  log: (l: string) => void;
}

/** One phase: N workers, fresh lanes, `count` operations; the workers are stopped (drained) at its end. */
async function runPhase(ctx: PhaseContext, phase: number, workers: number, count: number, disrupt: boolean) {
  const { cluster, apis, o, log } = ctx;
  await Promise.all(Array.from({ length: workers }, (_, i) => cluster.startWorker(i)));
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
  for (const w of cluster.workers.splice(0)) await cluster.stop(w);
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
  const work = await mkdtemp(path.join(os.tmpdir(), 'folio-shape-'));
  const before = os.loadavg().map((x) => Number(x.toFixed(2)));
  let cluster: Cluster | undefined;
  let pool: pg.Pool | undefined;
  const specs = await startSpecServer();
  try {
    cluster = await startCluster(work);
    const p = (pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: 4 }));
    const db: Query = async (text, params) => (await p.query(text, params)).rows;
    for (const i of [0, 1]) await cluster.startApi(i);
    log(`deployment up: PostgreSQL, Temporal ${cluster.temporalAddress}, S3 ${cluster.s3.endpoint}, 2 API processes`);
    const apis = new Apis(cluster.apis.map((a) => `http://127.0.0.1:${a.port}`));
    const orgs = await makeOrganizations(cluster, o.organizations);
    const ctx: PhaseContext = { cluster, apis, db, orgs, specServer: specs.url, o, log };
    const runs = [];
    for (const [phase, workers] of o.workers.entries()) {
      const count = Math.floor(o.operations / o.workers.length) + (phase < o.operations % o.workers.length ? 1 : 0);
      runs.push({ workers, ...(await runPhase(ctx, phase, workers, count, phase === o.workers.length - 1 && workers >= 2)) });
    }
    return await account(ctx, runs, before);
  } finally {
    await pool?.end();
    await cluster?.close();
    await new Promise((r) => specs.server.close(r));
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
  const verdicts = await checkOperations(ctx.db, ctx.cluster.git, lanes, ops);
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
    spaceProblems: await checkSpaces(ctx.db, lanes, ops),
    loadAverage: { before, after: os.loadavg().map((x) => Number(x.toFixed(2))) },
  };
}
