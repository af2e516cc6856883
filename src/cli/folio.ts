#!/usr/bin/env node
/**
 * The `folio` command. Each sub-command lives in its own module under ./commands
 * and exports `run(argv: string[]): Promise<number>` (the exit code).
 */
type Command = { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> };

const commands: Record<string, Command> = {
  start: { summary: 'start Folio on its embedded defaults (database, Temporal dev server, worker, API)', load: () => import('./commands/start.js') },
  worker: { summary: 'run one worker against TEMPORAL_ADDRESS and DATABASE_URL', load: () => import('./commands/worker.js') },
  api: { summary: 'run the HTTP API against TEMPORAL_ADDRESS and DATABASE_URL', load: () => import('./commands/api.js') },
  'db-server': {
    summary: 'serve the embedded PGlite database over the PostgreSQL protocol on a unix socket in DATA_DIR/run',
    load: () => import('./commands/db-server.js'),
  },
  _guard: { summary: '(internal) run a program that must not outlive folio start', load: () => import('./commands/guard.js') },
  migrate: { summary: 'apply pending content-store migrations', load: () => import('./commands/migrate.js') },
  org: { summary: 'org create <id> --title <title> | org list', load: () => import('./commands/org.js') },
  token: { summary: 'token create|list|revoke --org <id>: API tokens (create prints one once)', load: () => import('./commands/token.js') },
  site: { summary: 'site export <basename> --out <dir>: write a published site to a directory (any static host)', load: () => import('./commands/site.js') },
  'api-reference': {
    summary: "api-reference: print the API reference (docs/api-reference.md) from the routes' schemas",
    load: () => import('./commands/api-reference.js'),
  },
  // Converter commands (format helper): check, roundtrip.
  check: {
    summary: 'check <dir> [--root <projectDirectory>]: import a Git Sync tree and report pages, files, warnings',
    load: () => import('./commands/check.js'),
  },
  roundtrip: {
    summary: 'roundtrip <dir> --out <outDir> [--root <dir>] [--reserialize]: import and export a tree, compare',
    load: () => import('./commands/roundtrip.js'),
  },
};

function usage(): string {
  const lines = Object.entries(commands)
    .filter(([name]) => !name.startsWith('_'))
    .map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
  return `usage: folio <command> [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`folio: unknown command ${JSON.stringify(name)}\n\n${usage()}`);
    return 2;
  }
  const mod = await command.load();
  return mod.run(rest);
}

// A reader that stopped reading (`folio check … | head`): end quietly with the status of a program killed by SIGPIPE
// (128 + 13), as git or cat do, instead of an unhandled EPIPE error and its stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(141);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`folio: ${message}\n`);
    process.exitCode = 1;
  },
);
