/**
 * Where a CPU profile's time went: the top self-time functions and modules of one or more `.cpuprofile` files
 * (written by `node --cpu-prof --cpu-prof-dir DIR`, one per process and per worker thread), with their share of
 * the profiled time (idle and garbage collection shown apart). Not a benchmark (run.ts skips `_` files): a tool
 * for reading what a benchmark's profile shows is left.
 *   npx tsx bench/_cpuprofile-top.ts DIR-or-files... [--top 15]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { arg } from './_helpers.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The module a script belongs to: an npm package name, a file of Folio, or node's own. */
function moduleOf(url: string): string {
  if (!url) return '(native/V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const m = /\/(dist\/)?((src|bench|activities|test)\/.*)$/.exec(url);
  return m ? m[2]!.replace(/\.js$/, '') : url;
}

function files(args: string[]): string[] {
  return args.flatMap((a) =>
    statSync(a).isDirectory()
      ? readdirSync(a)
          .filter((f) => f.endsWith('.cpuprofile'))
          .map((f) => path.join(a, f))
      : [a],
  );
}

/** Self time (µs) per function and per module over every profile given. */
function tally(paths: string[]): { byFn: Map<string, number>; byModule: Map<string, number>; total: number } {
  const byFn = new Map<string, number>();
  const byModule = new Map<string, number>();
  let total = 0;
  for (const file of paths) {
    const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const nodes = new Map(p.nodes.map((n) => [n.id, n]));
    p.samples.forEach((id, i) => {
      const n = nodes.get(id)!;
      const dt = p.timeDeltas[i] ?? 0;
      const { functionName, url, lineNumber } = n.callFrame;
      const special = ['(idle)', '(program)', '(garbage collector)'].includes(functionName);
      const fn = special ? functionName : `${functionName || '(anonymous)'} ${moduleOf(url)}:${lineNumber + 1}`;
      const mod = special ? functionName : moduleOf(url);
      byFn.set(fn, (byFn.get(fn) ?? 0) + dt);
      byModule.set(mod, (byModule.get(mod) ?? 0) + dt);
      total += dt;
    });
  }
  return { byFn, byModule, total };
}

const top = Number(arg('top', '15'));
const inputs = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--top');
const { byFn, byModule, total } = tally(files(inputs));
const idle = byFn.get('(idle)') ?? 0;
const busy = total - idle;
const show = (title: string, m: Map<string, number>) => {
  console.log(`${title} (share of busy time, ${(busy / 1e6).toFixed(1)} s busy of ${(total / 1e6).toFixed(1)} s profiled):`);
  for (const [k, v] of [...m]
    .filter(([k]) => k !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`  ${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`);
};
show('self time by module', byModule);
show('self time by function', byFn);
