import { loadConfig } from '../../config/config.js';
import { createLogger } from '../../log.js';
import { parseArgs, stringOption } from '../args.js';
import { openConfiguredStore } from '../open-store.js';
import { cliConfig } from '../data-dir.js';

const USAGE = 'usage: folio org create <id> --title <title>\n       folio org list\n';

/** `folio org create <id> --title <title>`, `folio org list`. */
export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const [sub, id] = args.positionals;
  if (sub !== 'create' && sub !== 'list') {
    process.stderr.write(USAGE);
    return 2;
  }
  const title = stringOption(args, 'title');
  if (sub === 'create' && (!id || !title)) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (sub === 'create' && !/^[A-Za-z0-9_-]{1,64}$/.test(id!)) {
    process.stderr.write('folio: an organization id is 1 to 64 letters, digits, "-" or "_"\n');
    return 2;
  }
  const config = await cliConfig(loadConfig(), (line) => process.stderr.write(line));
  const store = await openConfiguredStore(config, createLogger('cli', { level: 'warn', pretty: config.logPretty }));
  try {
    if (sub === 'list') {
      const { items } = await store.orgs.list({ limit: 1000 });
      for (const org of items) process.stdout.write(`${org.id}\t${org.title}\n`);
      return 0;
    }
    if (await store.orgs.get(id!)) {
      process.stderr.write(`folio: organization ${id} already exists\n`);
      return 1;
    }
    await store.orgs.create({ id: id!, title: title! });
    process.stdout.write(`created organization ${id}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
