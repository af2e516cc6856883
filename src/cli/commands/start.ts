import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from '../../bootstrap.js';
import { loadConfig } from '../../config/config.js';
import { childEnv as buildChildEnv } from '../../config/child-env.js';
import { warnUnknownVariables } from '../../config/unknown-variables.js';
import { createLogger } from '../../log.js';
import { openStore } from '../../store/index.js';
import { SupervisedChild, type LogSink } from '../../supervisor/child.js';
import { findTemporalCli } from '../../temporal/binaries.js';
import { devServerArgs, waitForTemporal } from '../../temporal/dev-server.js';
import { ensureTemporalBinaries } from '../../temporal/install-binaries.js';
import { EMBEDDED_DB_NODE_FLAGS } from '../../store/pglite-memory.js';
import { dbServerFile, resolveDatabaseUrl } from '../open-store.js';
import { WORKER_MALLOC_ENV, WORKER_NODE_FLAGS } from '../worker-memory.js';

/**
 * `folio start` (what `npm start` runs): the embedded default in one command. Starts, as supervised children,
 * the embedded database server (unless DATABASE_URL), the Temporal dev server (unless TEMPORAL_ADDRESS),
 * one worker and the HTTP API; Ctrl-C or SIGTERM stops them all within 10 seconds.
 */
export async function run(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger('folio', { level: config.logLevel, pretty: config.logPretty });
  // Once, here: the children get an environment built from the configuration, without unknown variables.
  warnUnknownVariables(logger);
  const pretty = config.logPretty ?? process.stdout.isTTY === true;
  const launch: Launch = {
    node: process.execPath,
    entry: process.argv[1]!,
    childEnv: buildChildEnv({ ...config, logPretty: false, supervised: true }),
    sink: { write: (line) => process.stdout.write(line + '\n'), pretty, color: process.stdout.isTTY === true },
  };
  const started = Date.now();

  mkdirSync(config.dataDir, { recursive: true });

  const supervisor = new Supervisor(logger, started);
  process.on('SIGINT', () => void supervisor.shutdown(0));
  process.on('SIGTERM', () => void supervisor.shutdown(0));

  try {
    // 1. The content store.
    const databaseUrl = config.databaseUrl || (await startEmbeddedDatabase(config, supervisor, launch));
    const store = await openStore({ databaseUrl, migrate: true, logger, poolSize: 2 });
    const boot = await bootstrap(store, { organizationId: config.bootstrapOrg, token: config.bootstrapToken });
    await store.close();

    // 2. Temporal.
    const temporalAddress = config.temporalAddress || (await startTemporal(config, supervisor, launch));

    // 3. The worker and the API.
    const roleEnv = buildChildEnv({ ...config, logPretty: false, supervised: true, databaseUrl, temporalAddress });
    const { node, entry, sink } = launch;
    supervisor.add(
      new SupervisedChild(
        { name: 'worker', command: node, args: [...WORKER_NODE_FLAGS, entry, 'worker'], env: { ...roleEnv, ...WORKER_MALLOC_ENV }, restart: true },
        sink,
      ),
      'worker',
    );
    supervisor.add(new SupervisedChild({ name: 'api', command: node, args: [entry, 'api'], env: roleEnv, restart: true }, sink), 'api');

    const apiUrl = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
    await waitForHealthyApi(apiUrl);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stderr.write(banner(config, boot, { seconds, apiUrl, temporalAddress }).join('\n') + '\n');
    logger.info({ seconds: Number(seconds) }, 'healthy');
    await new Promise(() => {});
    return 0;
  } catch (err) {
    logger.error({ err: (err as Error).message }, 'start failed');
    await supervisor.shutdown(1);
    return 1;
  }
}

type Config = ReturnType<typeof loadConfig>;
type Logger = ReturnType<typeof createLogger>;

/** How a child is started: this Node, the CLI's entry script, the children's environment, where their lines go. */
interface Launch {
  node: string;
  entry: string;
  childEnv: NodeJS.ProcessEnv;
  sink: LogSink;
}

/** The supervised children: a child that keeps failing stops them all; the roles stop before the infrastructure. */
class Supervisor {
  readonly children: SupervisedChild[] = [];
  shuttingDown = false;
  private readonly names = new WeakMap<SupervisedChild, string>();

  constructor(
    private readonly logger: Logger,
    private readonly started: number,
  ) {}

  add(child: SupervisedChild, name: string): SupervisedChild {
    this.names.set(child, name);
    this.children.push(child);
    child.onGiveUp = (code) => {
      this.logger.error({ child: name, code }, 'a supervised process keeps failing; stopping Folio');
      void this.shutdown(1);
    };
    child.start();
    return child;
  }

  async shutdown(code: number): Promise<void> {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.logger.info('stopping');
    const infrastructure = (c: SupervisedChild) => ['db', 'temporal'].includes(this.names.get(c) ?? '');
    const [infra, roles] = [this.children.filter(infrastructure), this.children.filter((c) => !infrastructure(c))];
    await Promise.all(roles.map((c) => c.stop(5000)));
    await Promise.all(infra.map((c) => c.stop(2000)));
    this.logger.info({ seconds: (Date.now() - this.started) / 1000 }, 'stopped');
    process.exit(code);
  }
}

/**
 * How long `folio start` waits for each child to be ready (the database to print its address, Temporal to answer,
 * the API to be healthy). A child that exits is restarted by its supervisor, which gives up (and stops Folio) when it
 * keeps failing: this bounds only a child that hangs. Generous, because on a loaded machine loading PGlite's
 * WebAssembly alone took over the 60 s this once was (a production-shape run under stress-ng could not start).
 */
const STARTUP_WAIT_MS = 600_000;

/** The embedded database server as a child; resolves to the URL it prints once it listens. */
async function startEmbeddedDatabase(config: Config, supervisor: Supervisor, { node, entry, childEnv, sink }: Launch): Promise<string> {
  if (await resolveDatabaseUrl(config)) {
    throw new Error(`another Folio is already running on DATA_DIR ${config.dataDir} (${dbServerFile(config.dataDir)}); stop it first`);
  }
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the embedded database did not start within ${STARTUP_WAIT_MS / 1000} s`)), STARTUP_WAIT_MS);
    supervisor.add(
      new SupervisedChild(
        {
          name: 'db',
          command: node,
          args: [...EMBEDDED_DB_NODE_FLAGS, entry, 'db-server'],
          env: childEnv,
          restart: true,
          onLine: (line) => {
            const m = /^FOLIO_DB_URL=(\S+)$/.exec(line);
            if (m) {
              clearTimeout(timer);
              resolve(m[1]!);
            }
          },
        },
        sink,
      ),
      'db',
    );
  });
}

/** The Temporal dev server as a child (under the guard); resolves to its address once it answers. */
async function startTemporal(config: Config, supervisor: Supervisor, { node, entry, sink }: Launch): Promise<string> {
  const cli = findTemporalCli(config.tools) ?? ensureTemporalBinaries({ testServer: false, tools: config.tools }).cli;
  const temporalAddress = `127.0.0.1:${config.temporalPort}`;
  const temporal = supervisor.add(
    new SupervisedChild(
      {
        name: 'temporal',
        command: node,
        args: [
          entry,
          '_guard',
          '--',
          cli,
          ...devServerArgs({
            binary: cli,
            port: config.temporalPort,
            uiPort: config.temporalUiPort,
            dbFile: path.join(config.dataDir, 'temporal.sqlite'),
            namespace: config.temporalNamespace,
            logLevel: 'warn',
          }),
        ],
        restart: true,
      },
      sink,
    ),
    'temporal',
  );
  await waitForTemporal(temporalAddress, {
    timeoutMs: STARTUP_WAIT_MS,
    namespace: config.temporalNamespace,
    isAlive: () => temporal.running || !supervisor.shuttingDown,
  });
  return temporalAddress;
}

async function waitForHealthyApi(apiUrl: string): Promise<void> {
  const deadline = Date.now() + STARTUP_WAIT_MS;
  for (;;) {
    try {
      const res = await fetch(`${apiUrl}/healthz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the API did not become healthy at ${apiUrl}/healthz within ${STARTUP_WAIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** What `folio start` prints once healthy: where the API and Temporal are, the organization, the token. */
function banner(
  config: Config,
  boot: Awaited<ReturnType<typeof bootstrap>>,
  { seconds, apiUrl, temporalAddress }: { seconds: string; apiUrl: string; temporalAddress: string },
): string[] {
  return [
    '',
    `Folio is running (healthy after ${seconds} s).`,
    `  API:            ${apiUrl}  (health: ${apiUrl}/healthz)`,
    ...(config.temporalAddress
      ? [`  Temporal:       ${temporalAddress}`]
      : [`  Temporal UI:    http://127.0.0.1:${config.temporalUiPort}`, `  Temporal gRPC:  ${temporalAddress}`]),
    `  Organization:   ${boot.organizationId}`,
    ...(boot.ownerId ? [`  Owner:          user ${boot.ownerId} (admin)`] : []),
    ...(boot.token
      ? [
          `  API token:      ${boot.token}`,
          "                  (the owner's personal token, shown once; create more with `npx folio token create --org " +
            boot.organizationId +
            ' [--user <id>]`)',
        ]
      : config.bootstrapToken
        ? ['  API token:      FOLIO_BOOTSTRAP_TOKEN']
        : ['  API token:      printed on first start; create one with `npx folio token create --org ' + boot.organizationId + '`']),
    `  Data:           ${config.dataDir}`,
    'Press Ctrl-C to stop.',
    '',
  ];
}
