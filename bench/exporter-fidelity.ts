/**
 * Exporter fidelity on repositories outside the corpus: for each fetched mirror (a bare git directory), pinned to
 * its newest `gitbook-bot` commit (or the commit a list names), the `.md` pages whose last change was a gitbook-bot
 * commit must come back byte-identical when reserialized from their model.
 *   npx tsx bench/exporter-fidelity.ts --set tune [--list bench/fidelity-repos.json] [--mirrors /work/.mirror]
 *   npx tsx bench/exporter-fidelity.ts /path/to/owner+name/repo ...
 * Prints a table on stderr and one JSON object on stdout. `--diff-dir DIR` (never with `--set held`) writes source
 * and output of every GitBook-written page that differs, for finding rules (refused for every list whose name starts with `held`). Repository content never enters this
 * repository: only the list of owner/name@commit does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyChanges, compareTrees, documents, exportRevision, importTree, readWorkingTree, type SourceTree } from '../src/format/index.js';
import { arg } from './_helpers.js';

interface Target {
  name: string;
  gitDir: string;
  commit: string | null;
}

interface RepoFigure {
  repo: string;
  commit: string;
  spaces: string[];
  pages: number;
  written: number;
  plainIdentical: number;
  plainFiles: number;
  writtenIdentical: number;
  plainPct: number;
  reserializePct: number;
  changed: string[];
}

function git(gitDir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
}

/** Targets from the command line: positional git directories, else the `--set` half of the `--list` file. */
function targets(): { set: string; list: Target[] } {
  const set = arg('set', '');
  const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
  if (positional.length)
    return { set: set || 'given', list: positional.map((d) => ({ name: path.basename(path.dirname(path.resolve(d))), gitDir: d, commit: null })) };
  if (!set) return { set: '', list: [] };
  const listFile = arg('list', path.join(path.dirname(new URL(import.meta.url).pathname), 'fidelity-repos.json'));
  const mirrors = arg('mirrors', '/work/.mirror');
  const entries = (JSON.parse(readFileSync(listFile, 'utf8')) as Record<string, unknown>)[set];
  if (!Array.isArray(entries)) throw new Error(`${listFile} has no list named ${set}`);
  return {
    set,
    list: (entries as string[]).map((e) => {
      const [repo, commit] = e.split('@') as [string, string | undefined];
      const dir = path.join(mirrors, repo.replace('/', '+'), 'repo');
      // Some snapshots are clones with a work tree: their git directory is repo/.git.
      return { name: repo, gitDir: existsSync(path.join(dir, '.git')) ? path.join(dir, '.git') : dir, commit: commit ?? null };
    }),
  };
}

/** Write the files of `commit` into `dir`, leaving out blobs the mirror lacks (a snapshot has no files of 4 MiB and more). */
function checkout(gitDir: string, commit: string, dir: string): void {
  const entries = git(gitDir, ['ls-tree', '-r', '-z', '--full-tree', commit])
    .split('\0')
    .filter(Boolean)
    .map((l) => {
      const [meta, file] = [l.slice(0, l.indexOf('\t')), l.slice(l.indexOf('\t') + 1)];
      const [mode, type, oid] = meta.split(' ') as [string, string, string];
      return { mode, type, oid, file };
    })
    .filter((e) => e.type === 'blob');
  const batch = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
    input: entries.map((e) => e.oid).join('\n') + '\n',
    maxBuffer: 2 * 1024 * 1024 * 1024,
  });
  let at = 0;
  for (const e of entries) {
    const nl = batch.indexOf(10, at);
    const header = batch.subarray(at, nl).toString('utf8');
    at = nl + 1;
    if (header.endsWith(' missing')) continue;
    const size = Number(header.split(' ')[2]);
    const bytes = batch.subarray(at, at + size);
    at += size + 1;
    const target = path.join(dir, e.file);
    mkdirSync(path.dirname(target), { recursive: true });
    if (e.mode === '120000') symlinkSync(bytes.toString('utf8'), target);
    else writeFileSync(target, bytes);
  }
}

/** The `.md` files of the tree at `commit` whose last change (newest commit touching them) was made by gitbook-bot. */
function gitbookWritten(gitDir: string, commit: string): Set<string> {
  const inTree = new Set(
    git(gitDir, ['ls-tree', '-r', '--name-only', '-z', commit])
      .split('\0')
      .filter((p) => p.endsWith('.md')),
  );
  const out = git(gitDir, ['log', '--no-renames', '--name-only', '-z', '--format=%x01%cn', commit]);
  const seen = new Set<string>();
  const written = new Set<string>();
  for (const chunk of out.split('\x01').slice(1)) {
    const end = chunk.indexOf('\0');
    const head = chunk.slice(0, end);
    const files = chunk
      .slice(end + 1)
      .split('\0')
      .map((f) => f.replace(/^\n/, ''))
      .filter(Boolean);
    for (const f of files) {
      if (seen.has(f) || !inTree.has(f)) continue;
      seen.add(f);
      if (head === 'gitbook-bot') written.add(f);
    }
  }
  return written;
}

/** Project directories: every directory with a `.gitbook.yaml`, and every one with a SUMMARY.md no such config points at. */
async function spaces(tree: SourceTree): Promise<string[]> {
  const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  const configs = [...tree.keys()].filter((p) => p.endsWith('.gitbook.yaml') && (p === '.gitbook.yaml' || p.endsWith('/.gitbook.yaml'))).map(dirOf);
  const covered = new Set<string>();
  for (const dir of configs) {
    const imported = await importTree(tree, { projectDirectory: dir });
    covered.add(imported.revision.config.root);
  }
  const summaries = [...tree.keys()].filter((p) => p === 'SUMMARY.md' || p.endsWith('/SUMMARY.md')).map(dirOf);
  return [...configs, ...summaries.filter((d) => !covered.has(d) && !configs.includes(d))];
}

async function measure(t: Target, diffDir: string | null): Promise<RepoFigure> {
  const commit = t.commit ?? git(t.gitDir, ['log', '-1', '--committer=gitbook-bot', '--format=%H']).trim();
  if (!commit) throw new Error(`${t.name}: no gitbook-bot commit`);
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-fidelity-'));
  try {
    checkout(t.gitDir, commit, dir);
    const tree = await readWorkingTree(dir);
    const written = gitbookWritten(t.gitDir, commit);
    const fig: RepoFigure = {
      repo: t.name,
      commit,
      spaces: await spaces(tree),
      pages: 0,
      written: 0,
      plainIdentical: 0,
      plainFiles: 0,
      writtenIdentical: 0,
      plainPct: 0,
      reserializePct: 0,
      changed: [],
    };
    const scored = new Set<string>();
    for (const space of fig.spaces) await measureSpace(tree, space, written, scored, fig, diffDir && path.join(diffDir, t.name.replace('/', '+')));
    fig.plainPct = pct(fig.plainIdentical, fig.plainFiles);
    fig.reserializePct = pct(fig.writtenIdentical, fig.written);
    return fig;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureSpace(
  tree: SourceTree,
  space: string,
  written: Set<string>,
  scored: Set<string>,
  fig: RepoFigure,
  diffDir: string | null,
): Promise<void> {
  const imported = await importTree(tree, { projectDirectory: space });
  const base = { base: imported.revision };
  const plain = compareTrees(tree, applyChanges(tree, (await exportRevision(imported.revision, tree, base)).changes));
  fig.plainIdentical += plain.identical;
  fig.plainFiles += tree.size;
  const re = applyChanges(tree, (await exportRevision(imported.revision, tree, { ...base, reserialize: true })).changes);
  const summary = imported.revision.config.summary;
  for (const page of documents(imported.revision.pages)) {
    const p = page.git?.path;
    if (!p || page.markdown === null || p === summary || scored.has(p)) continue;
    scored.add(p);
    fig.pages++;
    if (!written.has(p)) continue;
    fig.written++;
    if (tree.get(p)?.oid === re.get(p)?.oid) fig.writtenIdentical++;
    else {
      fig.changed.push(p);
      if (diffDir) await writeDiffPair(diffDir, p, tree, re);
    }
  }
}

async function writeDiffPair(diffDir: string, p: string, source: SourceTree, output: SourceTree): Promise<void> {
  const flat = p.replaceAll('/', '__');
  mkdirSync(diffDir, { recursive: true });
  writeFileSync(path.join(diffDir, `${flat}.src`), await source.get(p)!.read());
  const out = output.get(p);
  writeFileSync(path.join(diffDir, `${flat}.out`), out ? await out.read() : new Uint8Array());
}

function pct(n: number, d: number): number {
  return d === 0 ? 100 : Math.round((n / d) * 10000) / 100;
}

function table(figs: RepoFigure[]): string {
  const rows = figs.map((f) => [
    f.repo,
    String(f.pages),
    String(f.written),
    `${f.plainPct.toFixed(2)}%`,
    `${f.writtenIdentical}/${f.written}`,
    `${f.reserializePct.toFixed(2)}%`,
  ]);
  const head = ['repository', 'pages', 'GitBook-written', 'plain identical', 'reserialized', 'reserialized %'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const { set, list } = targets();
  const diffDir = process.argv.includes('--diff-dir') ? path.resolve(arg('diff-dir', '')) : null;
  if (diffDir && set.startsWith('held')) throw new Error(`a held list is measured, never diffed: --diff-dir is refused with --set ${set}`);
  const present = list.filter((t) => existsSync(t.gitDir));
  for (const t of list) if (!existsSync(t.gitDir)) process.stderr.write(`exporter-fidelity: ${t.name}: no mirror at ${t.gitDir}, skipped\n`);
  if (present.length === 0) {
    process.stderr.write('exporter-fidelity: no mirror to measure (fetch the repositories of bench/fidelity-repos.json first); nothing measured\n');
    process.stdout.write(`${JSON.stringify({ set, skipped: 'no mirror present', repositories: [] })}\n`);
    return;
  }
  const figs: RepoFigure[] = [];
  for (const t of present) {
    process.stderr.write(`exporter-fidelity: ${t.name} …\n`);
    figs.push(await measure(t, diffDir));
  }
  const written = figs.reduce((n, f) => n + f.written, 0);
  const identical = figs.reduce((n, f) => n + f.writtenIdentical, 0);
  const plain = figs.reduce((n, f) => n + f.plainIdentical, 0);
  const files = figs.reduce((n, f) => n + f.plainFiles, 0);
  const total = {
    repositories: figs.length,
    pages: figs.reduce((n, f) => n + f.pages, 0),
    written,
    writtenIdentical: identical,
    plainPct: pct(plain, files),
    reserializePct: pct(identical, written),
    lowest: Math.min(...figs.map((f) => f.reserializePct)),
  };
  process.stderr.write(
    `${table(figs)}\n\ntotal (${set || 'none'}): ${identical}/${written} = ${total.reserializePct.toFixed(2)}% reserialized, plain ${total.plainPct.toFixed(2)}%\n`,
  );
  process.stdout.write(`${JSON.stringify({ set, total, repositories: figs })}\n`);
}

await main();
