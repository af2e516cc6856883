import { loadConfig } from '../../config.js';
import { createLogger } from '../../log.js';
import { parseArgs, stringOption } from '../args.js';
import { openConfiguredStore } from '../open-store.js';

const USAGE = 'usage: folio token create --org <id> [--label <label>]\n';

/** `folio token create --org <id>`: prints a new API token once (only its hash is stored). */
export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const org = stringOption(args, 'org');
  if (args.positionals[0] !== 'create' || !org) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig();
  const store = await openConfiguredStore(config, createLogger('cli', { level: 'warn' }));
  try {
    if (!(await store.orgs.get(org))) {
      process.stderr.write(`folio: organization ${org} does not exist (create it with \`folio org create ${org} --title …\`)\n`);
      return 1;
    }
    const { token } = await store.tokens.create(org, { label: stringOption(args, 'label') });
    process.stdout.write(`${token}\n`);
    process.stderr.write('This token is shown once; store it now.\n');
    return 0;
  } finally {
    await store.close();
  }
}
