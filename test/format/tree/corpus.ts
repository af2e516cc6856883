/** Helpers for the corpus fidelity tests (not a test file). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportRevision, importTree, readWorkingTree, applyChanges, type ImportResult, type SourceTree } from '../../../src/format/index.js';
import { compareTrees } from '../../../src/format/roundtrip.js';
import { corpusDir } from '../../../src/project-root.js';

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
  const written = readFileSync(join(CORPUS, `${name}.gitbook-written.txt`), 'utf8').split('\n').filter(Boolean);
  return { name, tree: await readWorkingTree(join(CORPUS, name)), projectDirectory, written };
}

export interface Fidelity {
  imported: ImportResult;
  plain: ReturnType<typeof compareTrees>;
  reserialized: ReturnType<typeof compareTrees>;
  figure: { repo: string; pages: number; files: number; plainIdentical: string; summaryWrittenByGitbook: boolean; summaryIdentical: boolean | null; pagesIdentical: string; combined: number };
}

export async function fidelity(repo: CorpusRepo): Promise<Fidelity> {
  const imported = await importTree(repo.tree, { projectDirectory: repo.projectDirectory });
  const plainOut = applyChanges(repo.tree, (await exportRevision(imported.revision, repo.tree, { base: imported.revision })).changes);
  const plain = compareTrees(repo.tree, plainOut);
  const reOut = applyChanges(repo.tree, (await exportRevision(imported.revision, repo.tree, { base: imported.revision, reserialize: true })).changes);
  const reserialized = compareTrees(repo.tree, reOut);
  const summaryPath = imported.revision.config.summary;
  const same = (p: string) => repo.tree.get(p)?.oid === reOut.get(p)?.oid;
  const writtenPages = repo.written.filter((p) => p !== summaryPath);
  const identicalPages = writtenPages.filter(same).length;
  const summaryWritten = repo.written.includes(summaryPath);
  const combinedOk = identicalPages + (summaryWritten && same(summaryPath) ? 1 : 0);
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
      combined: Math.round((combinedOk / repo.written.length) * 10000) / 10000,
    },
  };
}
