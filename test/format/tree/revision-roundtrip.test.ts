import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyChanges, documents, importTree, type PageModel, type ReferenceTarget, type RevisionModel } from '../../../src/format/index.js';
import { CORPUS, importedRepo, loadRepo, reserializedChanges } from './corpus.js';

const REPOS = ['GitbookIO+git-sync-normalization', 'wandb+gitbook', 'FlowiseAI+FlowiseDocs', 'BlockRazorinc+docs_en'].filter((n) =>
  existsSync(join(CORPUS, n)),
);

/** The revision with ids replaced by the file paths they stand for (so two imports can be compared). */
function projection(revision: RevisionModel) {
  const pagePath = new Map([...documents(revision.pages)].map((p) => [p.id, p.git?.path ?? `(no file) ${p.title}`]));
  const filePath = new Map(revision.files.map((f) => [f.id, f.path]));
  const target = (t: ReferenceTarget | { kind: 'url'; url: string }) =>
    t.kind === 'page' ? { ...t, pageId: pagePath.get(t.pageId) } : t.kind === 'file' ? { ...t, fileId: filePath.get(t.fileId) } : t;
  const page = (p: PageModel): unknown => {
    const children = p.children.map(page);
    switch (p.kind) {
      case 'document':
        return {
          kind: p.kind,
          file: p.git?.path,
          title: p.title,
          titleSource: p.titleSource,
          tocTitle: p.tocTitle,
          linkTitle: p.linkTitle,
          slug: p.slug,
          path: p.path,
          description: p.description,
          icon: p.icon,
          emoji: p.emoji,
          hidden: p.hidden,
          noIndex: p.noIndex,
          layout: p.layout,
          cover: p.cover && { ...p.cover, fileId: p.cover.fileId && filePath.get(p.cover.fileId) },
          metaLinks: p.metaLinks,
          frontMatter: p.frontMatter,
          frontMatterValid: p.frontMatterValid,
          references: p.references.map((r) => ({ url: r.url, target: target(r.target) })),
          children,
        };
      case 'link':
        return { kind: p.kind, title: p.title, linkTitle: p.linkTitle, href: p.href, target: target(p.target), children };
      case 'group':
        return { kind: p.kind, title: p.title, slug: p.slug, untitled: p.untitled, children };
      case 'computed':
        return { kind: p.kind, source: p.source, children };
    }
  };
  return {
    config: revision.config && { ...revision.config, redirects: revision.config.redirects.map((r) => ({ ...r, pageId: r.pageId && pagePath.get(r.pageId) })) },
    pages: revision.pages.map(page),
    files: revision.files.map((f) => ({ path: f.path, role: f.role, referenced: f.referenced, contentType: f.contentType })),
  };
}

describe.each(REPOS)('revision round trip on %s', (name) => {
  it('export with --reserialize, then re-import: the same revision (ids, titles, TOC labels, references, page tree)', async () => {
    const repo = await loadRepo(name);
    // The repository's import of this run (computed by the first file that needs it, see importedRepo).
    const first = await importedRepo(repo);
    // Its export with every page written from its model (shared with corpus-fidelity, see reserializedChanges).
    const out = applyChanges(repo.tree, await reserializedChanges(repo));
    // A fresh import of the written tree: every field re-derived from the files.
    const fresh = await importTree(out, { projectDirectory: repo.projectDirectory });
    expect(fresh.stats.pages).toBe(first.stats.pages);
    expect(projection(fresh.revision)).toEqual(projection(first.revision));
    // Importing it as the next version of the space keeps every id.
    const next = await importTree(out, { projectDirectory: repo.projectDirectory, previous: { revision: first.revision, tree: repo.tree } });
    const ids = (r: RevisionModel) => {
      const out: string[] = [];
      const walk = (ps: PageModel[]) => ps.forEach((p) => (out.push(`${p.kind} ${p.kind === 'document' ? p.git?.path : p.title} ${p.id}`), walk(p.children)));
      walk(r.pages);
      return [...out, ...r.files.map((f) => `file ${f.path} ${f.id}`)];
    };
    expect(ids(next.revision)).toEqual(ids(first.revision));
    expect(projection(next.revision)).toEqual(projection(first.revision));
  }, 300_000);
});
