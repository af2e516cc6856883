import { loadConfig } from '../../config/config.js';
import { createLogger } from '../../log.js';
import { SiteExportError, writeSiteToDirectory } from '../../publish/write-directory.js';
import { parseArgs, stringOption } from '../args.js';
import { openConfiguredStore } from '../open-store.js';
import { cliConfig } from '../data-dir.js';

const USAGE = 'usage: folio site export <basename> --out <dir>\n';

/** `folio site export <basename> --out <dir>`: writes a published site to a directory for any static host. */
export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const [sub, basename] = args.positionals;
  const out = stringOption(args, 'out');
  if (sub !== 'export' || !basename || !out) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = await cliConfig(loadConfig(), (line) => process.stderr.write(line));
  const store = await openConfiguredStore(config, createLogger('cli', { level: 'warn', pretty: config.logPretty }));
  try {
    const site = await store.sites.getByBasename(basename);
    if (!site) {
      process.stderr.write(`folio: no site with basename ${basename}\n`);
      return 1;
    }
    const written = await writeSiteToDirectory(store, site, out);
    process.stdout.write(`wrote ${written.files} files and ${written.redirects} redirects to ${out}\n`);
    return 0;
  } catch (err) {
    if (err instanceof SiteExportError) {
      process.stderr.write(`folio: ${err.message} (${err.code})\n`);
      return 1;
    }
    throw err;
  } finally {
    await store.close();
  }
}
