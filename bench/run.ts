/**
 * `npm run bench`: runs every benchmark in bench/ one after the other (each in its own process, so one's memory
 * does not weigh on the next) and prints one JSON object with their results. Each benchmark prints its own JSON:
 * medians of several runs and a ratio against a baseline measured in the same run.
 * `npm run bench -- format-markdown git-sync` runs only those. db-growth (30 minutes) runs only when named: goals runs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((f) => f.endsWith('.js') && f !== 'run.js' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2);
const selected = wanted.length ? all.filter((b) => wanted.includes(b)) : all.filter((b) => b !== 'db-growth');
for (const name of wanted) if (!all.includes(name)) process.stderr.write(`bench: no benchmark named ${name} (have: ${all.join(', ')})\n`);

const results: Record<string, unknown> = {};
for (const name of selected) {
  const file = path.join(here, `${name}.js`);
  if (!existsSync(file)) continue;
  process.stderr.write(`bench: ${name} …\n`);
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--expose-gc', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  const out = r.stdout.trim();
  const lastJson = out
    .split('\n')
    .reverse()
    .find((l) => l.trim().startsWith('{'));
  let parsed: unknown = null;
  if (lastJson) {
    try {
      parsed = JSON.parse(lastJson);
    } catch {
      // fall through: maybe pretty-printed over several lines
    }
  }
  if (parsed === null && out.startsWith('{')) {
    try {
      parsed = JSON.parse(out);
    } catch {
      parsed = null;
    }
  }
  results[name] = r.status === 0 ? (parsed ?? { error: 'no JSON output', output: out.slice(-2000) }) : { error: `exit ${r.status}`, output: out.slice(-2000) };
  process.stderr.write(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
process.stdout.write(JSON.stringify({ machine: { cpus: (await import('node:os')).cpus().length, node: process.version }, results }, null, 2) + '\n');
