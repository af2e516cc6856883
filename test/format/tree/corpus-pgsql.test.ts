import { beforeAll, describe, expect, it } from 'vitest';
import { documents, exportRevision, importTree, memoryEntry, type SourceTree } from '../../../src/format/index.js';
import { cachedFidelity, importedRepo, loadRepo, type CorpusRepo, type Imported } from './corpus.js';

const NAME = 'pgsql-tw+gitbook-docs';

describe(`corpus ${NAME} (1000-page case)`, () => {
  let repo: CorpusRepo;
  let first: Imported;
  beforeAll(async () => {
    repo = await loadRepo(NAME);
  }, 300_000);

  it('round-trips byte for byte; reserialized SUMMARY.md and GitBook-written pages match', async () => {
    // From the result cache when nothing it reads changed. The import it starts from is the one the tests below use
    // (importedRepo: one import of the 1000 pages per run).
    const f = await cachedFidelity(repo);
    console.log(JSON.stringify({ fidelity: f.figure }));
    expect(f.plain.changed).toEqual([]);
    expect(f.plain.missing).toEqual([]);
    expect(f.plain.extra).toEqual([]);
    expect(f.plain.identical).toBe(repo.tree.size);
    expect(f.reserialized.missing).toEqual([]);
    expect(f.reserialized.extra).toEqual([]);
    if (f.figure.summaryWrittenByGitbook) expect(f.figure.summaryIdentical).toBe(true);
    expect(f.figure.combined).toBeGreaterThanOrEqual(0.99);
  }, 300_000);

  it('incremental import: one changed page is the only one parsed; all page ids stay', async () => {
    first ??= await importedRepo(repo);
    const pages = [...documents(first.revision.pages)];
    const victim = pages[Math.floor(pages.length / 2)]!;
    const next: SourceTree = new Map(repo.tree);
    next.set(victim.git!.path, memoryEntry(new TextEncoder().encode(`${victim.markdown}\nOne more line.\n`)));
    const second = await importTree(next, { projectDirectory: repo.projectDirectory, previous: { revision: first.revision, tree: repo.tree } });
    expect(second.stats.parsed).toBe(1);
    expect(second.stats.reused).toBe(pages.length - 1);
    const ids = (r: Imported) => [...documents(r.revision.pages)].map((p) => `${p.git!.path} ${p.id}`);
    expect(ids(second)).toEqual(ids(first));
  }, 300_000);

  it('export: one edited page changes exactly that file; a deleted page rewrites SUMMARY.md and removes its file and its unshared assets', async () => {
    first ??= await importedRepo(repo);
    const edited = structuredClone(first.revision);
    const pages = [...documents(edited.pages)];
    const target = pages[10]!;
    target.markdown = `${target.markdown}\nAn added paragraph.\n`;
    const one = await exportRevision(edited, repo.tree, { base: first.revision });
    expect([...one.changes.keys()]).toEqual([target.git!.path]);

    // Delete a leaf page that uses an asset no other page references (found generically).
    const removed = structuredClone(first.revision);
    const users = new Map<string, number>();
    for (const p of documents(removed.pages))
      for (const id of new Set(p.references.flatMap((r) => (r.target.kind === 'file' ? [r.target.fileId] : [])))) users.set(id, (users.get(id) ?? 0) + 1);
    const remove = (list: typeof removed.pages): string[] | null => {
      for (let i = 0; i < list.length; i++) {
        const p = list[i]!;
        if (
          p.kind === 'document' &&
          p.children.length === 0 &&
          p.git &&
          p.references.some((r) => r.target.kind === 'file' && users.get(r.target.fileId) === 1)
        ) {
          list.splice(i, 1);
          const own = p.references.flatMap((r) => (r.target.kind === 'file' && users.get(r.target.fileId) === 1 ? [r.target.fileId] : []));
          return [p.git.path, ...removed.files.filter((f) => own.includes(f.id)).map((f) => f.path)];
        }
        const inner = remove(p.children);
        if (inner) return inner;
      }
      return null;
    };
    const gone = remove(removed.pages);
    const expected = new Set([removed.config.summary, ...(gone ?? [])]);
    const del = await exportRevision(removed, repo.tree, { base: first.revision });
    expect(gone).not.toBeNull();
    expect(new Set(del.changes.keys())).toEqual(expected);
    for (const p of gone!) expect(del.changes.get(p)).toBeNull();
    const summary = new TextDecoder().decode(del.changes.get(removed.config.summary)!);
    const original = new TextDecoder().decode(await repo.tree.get(removed.config.summary)!.read());
    expect(original.split('\n').length - summary.split('\n').length).toBe(1);
  }, 300_000);
});
