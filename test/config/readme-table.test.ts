/**
 * The configuration is read in one place and documented completely: the table of docs/configuration.md lists
 * exactly the variables `loadConfig` reads (both directions), the test/benchmark variables are named in
 * docs/testing.md, and no other module of Folio reads `process.env` for a setting.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { CONFIG_VARIABLES, TEST_VARIABLES } from '../../src/config/variables.js';
import { projectRoot } from '../../src/project-root.js';

const root = projectRoot();
const configurationPage = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');
const testingPage = readFileSync(path.join(root, 'docs', 'testing.md'), 'utf8');

/** The first column of the table under `## Variables` of docs/configuration.md. */
function documentedVariables(): string[] {
  const section = configurationPage.split(/^## /m).find((s) => s.startsWith('Variables\n'));
  if (!section) throw new Error('docs/configuration.md has no "## Variables" section');
  const names: string[] = [];
  for (const line of section.split('\n')) {
    const m = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line);
    if (m) names.push(m[1]!);
  }
  return names;
}

/** The names `loadConfig` looks up in the environment it is given. */
function variablesRead(env: Record<string, string> = {}): Set<string> {
  const read = new Set<string>();
  const proxy = new Proxy(env, {
    get(target, prop) {
      if (typeof prop === 'string') read.add(prop);
      return Reflect.get(target, prop);
    },
  });
  loadConfig(proxy);
  read.delete('PATH'); // the system's search path for the Temporal binaries, no setting of Folio's
  return read;
}

describe('configuration documented in docs/configuration.md', () => {
  it('the table lists every variable Folio reads, once, and nothing else', () => {
    const documented = documentedVariables();
    expect(new Set(documented).size, 'a variable listed twice').toBe(documented.length);
    expect([...documented].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('loadConfig reads exactly the known variables', () => {
    expect([...variablesRead()].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('the variables of the tests and benchmarks are named in docs/testing.md', () => {
    for (const name of TEST_VARIABLES) expect(testingPage, name).toContain(`\`${name}\``);
  });

  it('no module outside the configuration reads process.env for a setting', () => {
    // The reviewed exceptions: tooling that passes the environment on or reads a tooling variable.
    const allowed: Record<string, string> = {
      'src/config/config.ts': 'loadConfig',
      'src/config/tools.ts': 'loadToolsConfig',
      'src/config/child-env.ts': 'the environment of the children of folio start',
      'src/config/unknown-variables.ts': 'the warning about unknown FOLIO_* variables',
      'src/system-packages.ts': 'apt-get runs in the environment of the installer',
      'src/temporal/install-binaries.ts': 'PYTHON, of the installer',
      'src/project-root.ts': 'FOLIO_CORPUS, of the tests and benchmarks',
      'bench/openapi.ts': 'BENCH_RUNS',
      'bench/pdf.ts': 'BENCH_RUNS',
      'bench/goals.ts': 'BENCH_RUNS, passed on to the benchmarks it runs with the environment',
      'bench/translation-noop.ts': 'BENCH_RUNS',
      'bench/git-transport.ts': 'BENCH_RUNS',
      'bench/git-sync.ts': 'BENCH_RUNS',
      'bench/format-markdown.ts': 'BENCH_RUNS',
      'bench/translation.ts': 'BENCH_RUNS',
      'bench/publish.ts': 'BENCH_RUNS',
      'bench/concurrency.ts': 'BENCH_DATABASES',
      'bench/git-sync-e2e.ts': 'BENCH_RUNS, BENCH_PAGES, BENCH_REPOS, BENCH_LOG_LEVEL; passes the environment on to the folio start it runs',
      'bench/git-sync-incremental.ts': 'BENCH_RUNS, BENCH_CPU_PROF',
      'bench/hostile-repository.ts': 'BENCH_RUNS, BENCH_NO_STRESS',
      'bench/_helpers.ts': 'BENCH_CPU_PROF (startProfile, shared by the benchmarks)',
      'bench/_db-server.ts': 'passes the environment on to the folio db-server it starts',
    };
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(path.join(root, dir))) {
        const rel = path.join(dir, name);
        if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
        else if (rel.endsWith('.ts') && /process\.env\b/.test(readFileSync(path.join(root, rel), 'utf8')) && !(rel in allowed)) offenders.push(rel);
      }
    };
    for (const dir of ['src', 'activities', 'workflows', 'bench']) walk(dir);
    expect(offenders).toEqual([]);
  });
});
