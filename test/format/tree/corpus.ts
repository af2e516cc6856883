/** Helpers for the corpus fidelity tests (not a test file). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documents, exportRevision, importTree, readWorkingTree, applyChanges, type ImportResult, type SourceTree } from '../../../src/format/index.js';
import { compareTrees } from '../../../src/format/roundtrip.js';
import { corpusDir } from '../../../src/project-root.js';
import { cachedResult } from '../../helpers/result-cache.js';
import type { Hash } from 'node:crypto';

export const CORPUS = corpusDir();

export interface CorpusRepo {
  name: string;
  tree: SourceTree;
  projectDirectory: string;
  /** Files whose last change was a GitBook commit. */
  written: string[];
}

/** The project directory: the repository root when its .gitbook.yaml sets `root`, else the docs root of `.source`. */
export async function loadRepo(name: string): Promise<CorpusRepo> {
  const source = readFileSync(join(CORPUS, `${name}.source`), 'utf8');
  const root = /^root:\s*(.*)$/m.exec(source)?.[1]?.trim() ?? '.';
  const top = join(CORPUS, name, '.gitbook.yaml');
  const projectDirectory = existsSync(top) && /^\s*root:/m.test(readFileSync(top, 'utf8')) ? '' : root === '.' ? '' : root;
  const written = readFileSync(join(CORPUS, `${name}.gitbook-written.txt`), 'utf8')
    .split('\n')
    .filter(Boolean);
  return { name, tree: await readWorkingTree(join(CORPUS, name)), projectDirectory, written };
}

/** What the tests keep of a repository's import: the revision (what the store keeps of it) and its figures. */
export type Imported = Pick<ImportResult, 'revision' | 'stats'>;

/** What a repository's import and fidelity read besides Folio's sources: each file's path, mode and blob oid, the project directory, the GitBook-written list. */
function repoInput(repo: CorpusRepo): (hash: Hash) => void {
  return (hash) => {
    hash.update(JSON.stringify([repo.projectDirectory, repo.written])).update('\0');
    for (const [path, e] of [...repo.tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) hash.update(`${path}\0${e.mode ?? ''}\0${e.oid}\0`);
  };
}

const imports = new Map<string, Promise<Imported>>();

/**
 * The import of a corpus repository (`importTree` of its tree), computed once per run and kept in the result cache
 * (../../helpers/result-cache.ts) under Folio's sources, this file and the repository: the files that assert on the
 * same repository's import (corpus-fidelity, revision-roundtrip, export-edits) share one computation, the first file
 * to need it computes it and the others read it back. A revision read back from JSON is what an export gets from the
 * store; the tests that re-import compare with it field by field.
 */
export function importedRepo(repo: CorpusRepo): Promise<Imported> {
  let known = imports.get(repo.name);
  if (!known) {
    known = cachedResult(`tree-import-${repo.name}`, ['test/format/tree/corpus.ts'], repoInput(repo), async () => {
      const { revision, stats } = await importTree(repo.tree, { projectDirectory: repo.projectDirectory });
      return { revision, stats };
    });
    imports.set(repo.name, known);
  }
  return known;
}

export interface Fidelity {
  imported: Imported;
  plain: ReturnType<typeof compareTrees>;
  reserialized: ReturnType<typeof compareTrees>;
  figure: {
    repo: string;
    pages: number;
    files: number;
    plainIdentical: string;
    summaryWrittenByGitbook: boolean;
    summaryIdentical: boolean | null;
    /** GitBook-written files that are imported pages (reserialized from their model): identical / all. */
    pagesIdentical: string;
    /** GitBook-written `.md` files that are not pages of the TOC (never reserialized, so not scored). */
    writtenNotPages: number;
    /** (identical reserialized GitBook-written pages + SUMMARY.md when GitBook wrote it) / their count. */
    combined: number;
  };
}

const reserializations = new Map<string, Promise<Map<string, Uint8Array | null>>>();

/**
 * The changes of the export of a repository's import (`importedRepo`) onto its own tree with every page written from
 * its model (`reserialize: true`, the CLI's `--reserialize`), computed once per run like the import and kept in the
 * result cache under the same key: corpus-fidelity scores them, revision-roundtrip imports the tree they make.
 */
export function reserializedChanges(repo: CorpusRepo): Promise<Map<string, Uint8Array | null>> {
  let known = reserializations.get(repo.name);
  if (!known) {
    known = cachedResult(`tree-reserialized-${repo.name}`, ['test/format/tree/corpus.ts'], repoInput(repo), async () => {
      const imported = await importedRepo(repo);
      const { changes } = await exportRevision(imported.revision, repo.tree, { base: imported.revision, reserialize: true });
      return [...changes].map(([path, bytes]) => [path, bytes === null ? null : Buffer.from(bytes).toString('base64')] as const);
    }).then((changes) => new Map(changes.map(([path, bytes]) => [path, bytes === null ? null : new Uint8Array(Buffer.from(bytes, 'base64'))])));
    reserializations.set(repo.name, known);
  }
  return known;
}

/** The round trips of `repo` from its import (`importedRepo`). */
export async function fidelity(repo: CorpusRepo): Promise<Fidelity> {
  const imported = await importedRepo(repo);
  const plainOut = applyChanges(repo.tree, (await exportRevision(imported.revision, repo.tree, { base: imported.revision })).changes);
  const plain = compareTrees(repo.tree, plainOut);
  const reOut = applyChanges(repo.tree, await reserializedChanges(repo));
  const reserialized = compareTrees(repo.tree, reOut);
  const summaryPath = imported.revision.config.summary;
  const same = (p: string) => repo.tree.get(p)?.oid === reOut.get(p)?.oid;
  // Only pages written from their model count: a page with content (not a symlink, binary or oversized file).
  const reserializedPages = new Set([...documents(imported.revision.pages)].flatMap((p) => (p.git && p.markdown !== null ? [p.git.path] : [])));
  const written = repo.written.filter((p) => p !== summaryPath);
  const writtenPages = written.filter((p) => reserializedPages.has(p));
  const identicalPages = writtenPages.filter(same).length;
  const summaryWritten = repo.written.includes(summaryPath);
  const combinedOk = identicalPages + (summaryWritten && same(summaryPath) ? 1 : 0);
  const scored = writtenPages.length + (summaryWritten ? 1 : 0);
  return {
    imported,
    plain,
    reserialized,
    figure: {
      repo: repo.name,
      pages: imported.stats.pages,
      files: imported.stats.files,
      plainIdentical: `${plain.identical}/${repo.tree.size}`,
      summaryWrittenByGitbook: summaryWritten,
      summaryIdentical: summaryWritten ? same(summaryPath) : null,
      pagesIdentical: `${identicalPages}/${writtenPages.length}`,
      writtenNotPages: written.length - writtenPages.length,
      combined: Math.round((combinedOk / scored) * 10000) / 10000,
    },
  };
}

/**
 * `fidelity(repo)` without the imported revision, from the result cache (../../helpers/result-cache.ts) when Folio's
 * sources, this file and the repository (each file's path, mode and blob oid, its project directory and its
 * GitBook-written list) are those of a run that stored it.
 */
export async function cachedFidelity(repo: CorpusRepo): Promise<Omit<Fidelity, 'imported'>> {
  return cachedResult(`tree-fidelity-${repo.name}`, ['test/format/tree/corpus.ts'], repoInput(repo), async () => {
    const { plain, reserialized, figure } = await fidelity(repo);
    return { plain, reserialized, figure };
  });
}
