/**
 * Checks (and, as root with apt-get, installs) the Debian packages Folio's tests and tools rely on:
 * `git` (http-backend for the loopback git server, CLI cross-checks), `postgresql` (store tests on a real server),
 * `python3-venv` (the Temporal binaries' virtualenv). Without root or apt-get it stops with the command to run.
 */
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

interface Requirement {
  pkg: string;
  why: string;
  present(): boolean;
}

const has = (cmd: string, args: string[] = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

const REQUIREMENTS: Record<string, Requirement> = {
  git: { pkg: 'git', why: 'git CLI and git http-backend', present: () => has('git') && existsSync('/usr/lib/git-core/git-http-backend') },
  postgresql: {
    pkg: 'postgresql',
    why: 'a real PostgreSQL server for the store tests',
    present: () => existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)),
  },
  venv: { pkg: 'python3-venv', why: 'the virtualenv that holds the Temporal binaries', present: () => has('python3', ['-c', 'import venv, ensurepip']) },
  apertium: { pkg: 'apertium', why: 'the offline translation engine', present: () => has('apertium', ['-l']) },
  'apertium-eng-spa': {
    pkg: 'apertium-eng-spa',
    why: 'the English-Spanish Apertium language pair',
    present: () => existsSync('/usr/share/apertium/modes/eng-spa.mode'),
  },
  'apertium-apy': { pkg: 'apertium-apy', why: "Apertium's HTTP server", present: () => existsSync('/usr/bin/apertium-apy') },
  mkdocs: { pkg: 'mkdocs', why: 'MkDocs sites for the website-import tests', present: () => has('mkdocs', ['--version']) },
  sphinx: { pkg: 'python3-sphinx', why: 'Sphinx sites for the website-import tests', present: () => has('sphinx-build', ['--version']) },
  myst: {
    pkg: 'python3-myst-parser',
    why: 'markdown pages in the Sphinx sites of the website-import tests',
    present: () => has('/usr/bin/python3', ['-c', 'import myst_parser']),
  },
  wget: { pkg: 'wget', why: 'the baseline of the website-import benchmark', present: () => has('wget') },
  chromium: { pkg: 'chromium', why: 'the browser tests of published sites', present: () => existsSync('/usr/bin/chromium') },
  poppler: { pkg: 'poppler-utils', why: 'pdftotext and pdfinfo, which read the PDF exports in the tests', present: () => has('pdftotext', ['-v']) },
  java: {
    pkg: 'default-jre-headless',
    why: 'Java 17+ for the S3-compatible test server (S3Proxy) of the s3 blob store tests',
    present: () => {
      const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
      const m = /version "(\d+)/.exec(`${r.stderr ?? ''}${r.stdout ?? ''}`);
      return r.status === 0 && m !== null && Number(m[1]) >= 17;
    },
  },
  prometheus: {
    pkg: 'prometheus',
    why: "Prometheus, which the production-shape run starts to scrape Folio's metrics as docker-compose.yml's does",
    present: () => has('prometheus', ['--version']),
  },
  'stress-ng': { pkg: 'stress-ng', why: 'the CPU load of the hostile-repository test and benchmark', present: () => has('stress-ng', ['--version']) },
};

/**
 * The requirements a running Folio worker has (the rest serve the tests): git for git sync, Apertium and its pair for
 * the default translation engine. A deployment's image installs their Debian packages (test/unit/docker-compose.test.ts).
 */
export const RUNTIME_REQUIREMENTS = ['git', 'apertium', 'apertium-eng-spa'] as const;

/** The Debian package of a requirement. */
export function debianPackage(name: string): string {
  const r = REQUIREMENTS[name];
  if (!r) throw new Error(`unknown system requirement ${name}`);
  return r.pkg;
}

export function missingPackages(names: string[]): Requirement[] {
  return names.map((n) => REQUIREMENTS[n]!).filter((r) => !r.present());
}

export function ensurePackages(names: string[]): void {
  const missing = missingPackages(names);
  if (missing.length === 0) return;
  const pkgs = missing.map((m) => m.pkg);
  const command = `apt-get update && apt-get install -y ${pkgs.join(' ')}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !has('apt-get', ['--version'])) {
    throw new Error(`missing system packages (${missing.map((m) => `${m.pkg}: ${m.why}`).join('; ')}). Run: sudo sh -c '${command}'`);
  }
  process.stderr.write(`[system-packages] installing ${pkgs.join(' ')}\n`);
  // apt-get runs in this process's environment (no setting of Folio's is read here).
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
  const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...pkgs], { stdio: 'inherit', env }) : update;
  if (install.status !== 0) throw new Error(`could not install ${pkgs.join(' ')}. Run: ${command}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    ensurePackages(process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(REQUIREMENTS));
  } catch (err) {
    process.stderr.write(`[system-packages] ${(err as Error).message}\n`);
    process.exit(1);
  }
}
