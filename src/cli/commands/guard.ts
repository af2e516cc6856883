import { guard } from '../../supervisor/guard.js';

/** `folio _guard -- <command> [args…]` (internal): runs a program that must not outlive `folio start`. */
export async function run(argv: string[]): Promise<number> {
  const rest = argv[0] === '--' ? argv.slice(1) : argv;
  const [command, ...args] = rest;
  if (!command) {
    process.stderr.write('usage: folio _guard -- <command> [args…]\n');
    return 2;
  }
  const code = await guard(command, args);
  process.exit(code);
}
