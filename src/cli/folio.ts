#!/usr/bin/env node
/**
 * The `folio` command. Each sub-command lives in its own module under ./commands
 * and exports `run(argv: string[]): Promise<number>` (the exit code).
 */
type Command = { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> };

const commands: Record<string, Command> = {
  // The lead adds: start, worker, api, db-server, migrate, org, token.
  // Converter commands (format helper): check, roundtrip.
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
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
