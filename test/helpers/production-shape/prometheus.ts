/**
 * Prometheus (Debian's `prometheus`, the version docker-compose.yml's prom/prometheus image pins) for the
 * production-shape run, on loopback with a configuration made from deploy/prometheus.yml: the same jobs and metric
 * paths; each job's DNS discovery (a compose service and port) becomes a file of targets, the loopback ports of the
 * processes standing for that service (the port is matched to the variable of the service's environment in
 * docker-compose.yml that sets it: the API's PORT, the worker's FOLIO_WORKER_METRICS_PORT and
 * FOLIO_TEMPORAL_METRICS_PORT), rewritten whenever a process starts. The scrape interval is shortened (a run lasts
 * minutes, not days). After the run its HTTP API tells what was scraped.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import { projectRoot } from '../../../src/project-root.js';
import { freePort } from '../free-port.js';
import { composeImage, loadCompose, type ComposeFile } from './compose-file.js';

const execFileP = promisify(execFile);

interface ScrapeConfig {
  job_name: string;
  metrics_path?: string;
  scheme?: string;
  dns_sd_configs?: Array<{ names: string[]; type?: string; port: number }>;
  file_sd_configs?: Array<{ files: string[]; refresh_interval?: string }>;
  static_configs?: unknown;
}

/** A job of deploy/prometheus.yml: the compose service it scrapes and the variable that sets the scraped port. */
export interface ScrapeJob {
  job: string;
  service: string;
  variable: string;
}

export function loadDeployPrometheus(): { global?: Record<string, unknown>; scrape_configs: ScrapeConfig[] } {
  return yaml.load(readFileSync(path.join(projectRoot(), 'deploy', 'prometheus.yml'), 'utf8')) as { scrape_configs: ScrapeConfig[] };
}

/** The jobs of deploy/prometheus.yml, each a compose service and the variable of its environment set to the port scraped. */
export function scrapeJobs(compose: ComposeFile = loadCompose()): ScrapeJob[] {
  return loadDeployPrometheus().scrape_configs.map((c) => {
    const sd = c.dns_sd_configs;
    if (!sd || sd.length !== 1 || sd[0]!.names.length !== 1 || c.static_configs || c.file_sd_configs)
      throw new Error(`deploy/prometheus.yml: job ${c.job_name} is not one DNS name and port (the production-shape run cannot map it)`);
    const service = sd[0]!.names[0]!;
    const env = compose.services[service]?.environment ?? {};
    const variables = Object.entries(env).filter(([, v]) => String(v) === String(sd[0]!.port));
    if (variables.length !== 1)
      throw new Error(`deploy/prometheus.yml: job ${c.job_name} scrapes ${service}:${sd[0]!.port}, set by ${variables.length} variables of that service`);
    return { job: c.job_name, service, variable: variables[0]![0] };
  });
}

/** deploy/prometheus.yml with each job's DNS discovery replaced by a targets file in `dir`, and the given interval. */
export function loopbackConfig(dir: string, intervalSeconds: number): string {
  const source = loadDeployPrometheus();
  const scrape_configs = source.scrape_configs.map(({ dns_sd_configs: _dns, ...rest }) => ({
    ...rest,
    file_sd_configs: [{ files: [path.join(dir, `${rest.job_name}.json`)], refresh_interval: `${intervalSeconds}s` }],
  }));
  return yaml.dump({ global: { ...source.global, scrape_interval: `${intervalSeconds}s`, scrape_timeout: `${intervalSeconds}s` }, scrape_configs });
}

/** The version of Debian's prometheus (`2.42.0` of `prometheus, version 2.42.0+ds (...)`). */
export async function installedPrometheusVersion(): Promise<string> {
  const { stdout, stderr } = await execFileP('prometheus', ['--version']);
  const m = /prometheus, version (\d+\.\d+\.\d+)/.exec(`${stdout}${stderr}`);
  if (!m) throw new Error(`prometheus --version said: ${stdout}${stderr}`);
  return m[1]!;
}

export interface Prometheus {
  url: string;
  intervalSeconds: number;
  jobs: ScrapeJob[];
  /** Every target each job was given (a job keeps its targets: a stopped process shows as down). */
  targets: Map<string, Set<string>>;
  addTargets(job: string, targets: string[]): Promise<void>;
  /** An instant query; the result vector as `labels → value`. */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>>;
  /** The names of every metric scraped so far. */
  metricNames(): Promise<string[]>;
  stop(): Promise<void>;
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`prometheus exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    try {
      if ((await fetch(`${url}/-/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`prometheus not ready within 120 s:\n${output()}`);
}

/** Starts Prometheus on loopback (checking first that it is the version docker-compose.yml pins), no targets yet. */
export async function startPrometheus(dir: string, intervalSeconds = 2): Promise<Prometheus> {
  const installed = await installedPrometheusVersion();
  const pinned = composeImage('prometheus').tag.replace(/^v/, '');
  if (installed !== pinned) throw new Error(`prometheus ${installed} is installed, docker-compose.yml runs prom/prometheus ${pinned}`);
  const jobs = scrapeJobs();
  const sd = path.join(dir, 'targets');
  await mkdir(sd, { recursive: true });
  const targets = new Map(jobs.map((j) => [j.job, new Set<string>()]));
  const writeTargets = async (job: string) => {
    const file = path.join(sd, `${job}.json`);
    await writeFile(`${file}.tmp`, JSON.stringify([{ targets: [...targets.get(job)!].sort() }]));
    await rename(`${file}.tmp`, file);
  };
  for (const j of jobs) await writeTargets(j.job);
  await writeFile(path.join(dir, 'prometheus.yml'), loopbackConfig(sd, intervalSeconds));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // prettier-ignore
  const args = [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'];
  const child = spawn('prometheus', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  for (const s of [child.stdout!, child.stderr!]) s.on('data', (c: Buffer) => void (tail = (tail + c.toString('utf8')).slice(-8000)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const done = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await done;
    clearTimeout(timer);
  };
  try {
    await waitReady(url, child, () => tail);
  } catch (err) {
    await stop();
    throw err;
  }
  const api = async (p: string) => {
    const res = await fetch(`${url}${p}`);
    const body = (await res.json()) as { status: string; data: unknown; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${p}: ${body.error ?? res.status}`);
    return body.data;
  };
  return {
    url,
    intervalSeconds,
    jobs,
    targets,
    async addTargets(job, list) {
      const set = targets.get(job);
      if (!set) throw new Error(`no job ${job} in deploy/prometheus.yml`);
      const before = set.size;
      for (const t of list) set.add(t);
      if (set.size !== before) await writeTargets(job);
    },
    async query(promql) {
      const data = (await api(`/api/v1/query?query=${encodeURIComponent(promql)}`)) as {
        result: Array<{ metric: Record<string, string>; value: [number, string] }>;
      };
      return data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    metricNames: async () => (await api('/api/v1/label/__name__/values')) as string[],
    stop,
  };
}

/** The metric names of the PromQL expressions of deploy/grafana/folio.json (functions, keywords, labels and ranges left out). */
export function dashboardMetricNames(): string[] {
  const dashboard = readFileSync(path.join(projectRoot(), 'deploy', 'grafana', 'folio.json'), 'utf8');
  const exprs: string[] = [];
  JSON.parse(dashboard, (key, value: unknown) => {
    if (key === 'expr' && typeof value === 'string') exprs.push(value);
    return value;
  });
  const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset']);
  const names = new Set<string>();
  for (const expr of exprs) {
    const bare = expr
      .replace(/"(?:[^"\\]|\\.)*"/g, '""')
      .replace(/\{[^}]*\}/g, '')
      .replace(/\[[^\]]*\]/g, '')
      .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
    for (const m of bare.matchAll(/\b[A-Za-z_:][A-Za-z0-9_:]*\b(?!\s*\()/g)) if (!keywords.has(m[0]) && !/^\d/.test(m[0])) names.add(m[0]);
  }
  return [...names].sort();
}

/** What the run expects each job of deploy/prometheus.yml to have scraped: a selector, and whether its value must be above 0. */
const EXPECTED: Record<string, Array<[selector: string, nonZero: boolean]>> = {
  'folio-api': [
    ['folio_http_requests_total', true],
    ['folio_http_request_duration_seconds_count', true],
    ['folio_process_resident_memory_bytes', true],
    ['folio_parse_pool_threads', false],
  ],
  'folio-worker': [
    ['folio_operations_total{pipeline="git-import",outcome="success"}', true],
    ['folio_operations_total{pipeline="git-import",outcome="failure"}', true],
    ['folio_operation_duration_seconds_count{pipeline="git-import"}', true],
    ['folio_operation_duration_seconds_sum{pipeline="git-import"}', true],
    ['folio_pages_processed_total{pipeline="git-import"}', true],
    ['folio_bytes_processed_total{pipeline="git-import"}', true],
    ['folio_fetch_refusals_total{code="FETCH_PRIVATE_ADDRESS_DENIED"}', true],
    ['folio_activity_attempts_total{activity="gitImportOperation"}', true],
    ['folio_parse_pool_threads{pool="parse"}', true],
    // No page of the run overruns a parse budget: the gauge is scraped (0), as are the queue and busy gauges.
    ['folio_parse_pool_threads_terminated_total{pool="parse"}', false],
    ['folio_parse_pool_queue_depth{pool="parse"}', false],
    ['folio_parse_pool_busy_threads{pool="parse"}', false],
  ],
  'temporal-sdk': [
    ['{__name__=~"temporal_workflow_completed.*"}', true],
    ['{__name__=~"temporal_activity_execution_latency.*"}', false],
  ],
};

/** `selector` restricted to `job`. */
function inJob(selector: string, job: string): string {
  const m = /^([^{]*)(?:\{(.*)\})?$/.exec(selector)!;
  return `${m[1]}{${[`job="${job}"`, m[2]].filter(Boolean).join(',')}}`;
}

/**
 * After a run: every target of every job was up at least once; each job's expected metrics were scraped (above zero
 * where the run makes them count); every metric of the Grafana dashboard was scraped. Returns the problems (none: [])
 * and the figures seen.
 */
export async function scrapeProblems(prom: Prometheus): Promise<{ problems: string[]; seen: Record<string, number> }> {
  const problems: string[] = [];
  const seen: Record<string, number> = {};
  const range = '[6h]';
  const up = await prom.query(`max_over_time(up${range})`);
  for (const { job } of prom.jobs) {
    if (!EXPECTED[job]) problems.push(`job ${job} of deploy/prometheus.yml has no expected metrics in the production-shape run`);
    for (const target of prom.targets.get(job)!) {
      const v = up.find((u) => u.metric.job === job && u.metric.instance === target)?.value;
      seen[`up{job="${job}",instance="${target}"}`] = v ?? -1;
      if (v !== 1) problems.push(`target ${target} of job ${job} was never up (max up: ${v ?? 'no series'})`);
    }
    if (prom.targets.get(job)!.size === 0) problems.push(`job ${job} got no target`);
  }
  const scraped = new Set(await prom.metricNames());
  for (const [job, expected] of Object.entries(EXPECTED)) {
    for (const [selector, nonZero] of expected) {
      // A `{__name__=~"…"}` selector is asked name by name (an _over_time function drops the name: the series of
      // several names would collide).
      const pattern = /^\{__name__=~"(.*)"\}$/.exec(selector)?.[1];
      const selectors = pattern ? [...scraped].filter((n) => new RegExp(`^(?:${pattern})$`).test(n)) : [selector];
      let value: number | undefined;
      for (const sel of selectors) {
        const r = await prom.query(`sum(max_over_time(${inJob(sel, job)}${range}))`);
        if (r.length) value = (value ?? 0) + r[0]!.value;
      }
      seen[inJob(selector, job)] = value ?? -1;
      if (value === undefined) problems.push(`${inJob(selector, job)} was not scraped`);
      else if (nonZero && !(value > 0)) problems.push(`${inJob(selector, job)} was scraped but is ${value}`);
    }
  }
  for (const name of dashboardMetricNames()) if (!scraped.has(name)) problems.push(`${name} (deploy/grafana/folio.json) was never scraped`);
  return { problems, seen };
}
