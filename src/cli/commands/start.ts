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
  const sink: LogSink = { write: (line) => process.stdout.write(line + '\n'), pretty, color: process.stdout.isTTY === true };
  const node = process.execPath;
  const entry = process.argv[1]!;
  const childEnv = buildChildEnv({ ...config, logPretty: false, supervised: true });
  const children: SupervisedChild[] = [];
  let shuttingDown = false;
  const started = Date.now();

  mkdirSync(config.dataDir, { recursive: true });

  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info('stopping');
    const [infra, roles] = [children.filter((c) => ['db', 'temporal'].includes(nameOf(c))), children.filter((c) => !['db', 'temporal'].includes(nameOf(c)))];
    await Promise.all(roles.map((c) => c.stop(5000)));
    await Promise.all(infra.map((c) => c.stop(2000)));
    logger.info({ seconds: (Date.now() - started) / 1000 }, 'stopped');
    process.exit(code);
  };
  const names = new WeakMap<SupervisedChild, string>();
  const nameOf = (c: SupervisedChild) => names.get(c) ?? '';
  const add = (child: SupervisedChild, name: string) => {
    names.set(child, name);
    children.push(child);
    child.onGiveUp = (code) => {
      logger.error({ child: name, code }, 'a supervised process keeps failing; stopping Folio');
      void shutdown(1);
    };
    child.start();
    return child;
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    // 1. The content store.
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      if (await resolveDatabaseUrl(config)) {
        throw new Error(`another Folio is already running on DATA_DIR ${config.dataDir} (${dbServerFile(config.dataDir)}); stop it first`);
      }
      databaseUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the embedded database did not start within 60 s')), 60_000);
        add(
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
    const store = await openStore({ databaseUrl, migrate: true, logger, poolSize: 2 });
    const boot = await bootstrap(store, { organizationId: config.bootstrapOrg, token: config.bootstrapToken });
    await store.close();

    // 2. Temporal.
    let temporalAddress = config.temporalAddress;
    if (!temporalAddress) {
      const cli = findTemporalCli(config.tools) ?? ensureTemporalBinaries({ testServer: false, tools: config.tools }).cli;
      temporalAddress = `127.0.0.1:${config.temporalPort}`;
      add(
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
      const temporal = children[children.length - 1]!;
      await waitForTemporal(temporalAddress, { timeoutMs: 90_000, namespace: config.temporalNamespace, isAlive: () => temporal.running || !shuttingDown });
    }

    // 3. The worker and the API.
    const roleEnv = buildChildEnv({ ...config, logPretty: false, supervised: true, databaseUrl, temporalAddress });
    add(
      new SupervisedChild(
        { name: 'worker', command: node, args: [...WORKER_NODE_FLAGS, entry, 'worker'], env: { ...roleEnv, ...WORKER_MALLOC_ENV }, restart: true },
        sink,
      ),
      'worker',
    );
    add(new SupervisedChild({ name: 'api', command: node, args: [entry, 'api'], env: roleEnv, restart: true }, sink), 'api');

    const apiUrl = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        const res = await fetch(`${apiUrl}/healthz`);
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the API did not become healthy at ${apiUrl}/healthz within 90 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const lines = [
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
    process.stderr.write(lines.join('\n') + '\n');
    logger.info({ seconds: Number(seconds) }, 'healthy');
    await new Promise(() => {});
    return 0;
  } catch (err) {
    logger.error({ err: (err as Error).message }, 'start failed');
    await shutdown(1);
    return 1;
  }
}
