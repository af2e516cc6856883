import type { PageModel } from '../model.js';
import { basename, dirname, joinPath } from '../paths.js';
import type { ExportContext } from './context.js';

/**
 * Phase "page file paths": a page whose URL path is unchanged stays in its file; a new or moved page gets a path from
 * its parent's folder and its slug (`slug.md`, or `slug/README.md` when it has children), numbered when the path is
 * taken or holds a file the space does not manage.
 */
export function layOutPages(ctx: Pick<ExportContext, 'target' | 'revision' | 'docs' | 'basePages' | 'urlPaths' | 'paths' | 'taken' | 'moved'>): void {
  const { target, revision, basePages, urlPaths, paths, taken, moved } = ctx;
  const { config } = revision;
  // 1. pages staying where they are
  const computeUrlPaths = (list: PageModel[], parent: string) => {
    for (const p of list) {
      if (p.kind === 'document') {
        const own = p.git?.path === config.readme || (p.path === '' && p.slug === '') ? '' : parent === '' ? p.slug : `${parent}/${p.slug}`;
        urlPaths.set(p.id, own);
        computeUrlPaths(p.children, own);
      } else computeUrlPaths(p.children, parent);
    }
  };
  computeUrlPaths(revision.pages, '');
  for (const p of ctx.docs) {
    if (p.git && urlPaths.get(p.id) === p.path) {
      paths.set(p.id, p.git.path);
      taken.add(p.git.path);
    }
  }
  // 2. new or moved pages: a path from the parent's folder and the slug
  const place = (list: PageModel[], dir: string) => {
    for (const p of list) {
      if (p.kind !== 'document') {
        place(p.children, dir);
        continue;
      }
      let path = paths.get(p.id);
      if (path === undefined) {
        const slug = p.slug || 'page';
        const hasChildren = p.children.length > 0;
        const make = (n: number) => {
          const s = n === 0 ? slug : `${slug}-${n}`;
          return hasChildren ? joinPath(dir, s, 'README.md') : joinPath(dir, `${s}.md`);
        };
        let n = 0;
        while (taken.has(make(n)) || (target.has(make(n)) && !basePages.has(make(n)))) n++;
        path = make(n);
        paths.set(p.id, path);
        taken.add(path);
        if (p.git) moved.set(p.id, p.git.path);
      }
      const childDir = basename(path).toLowerCase() === 'readme.md' ? dirname(path) : joinPath(dirname(path), basename(path).replace(/\.md$/i, ''));
      place(p.children, childDir);
    }
  };
  place(revision.pages, config.root);
}
