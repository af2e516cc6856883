import type { PageModel } from '../model.js';
import { basename, dirname, joinPath } from '../paths.js';
import { targetFileOf, type ExportContext } from './context.js';

/** Page id → URL path of the document pages of `pages` (a group adds no segment; the first page has none). */
function urlPathsOf(pages: PageModel[], readme: string, out = new Map<string, string>()): Map<string, string> {
  const walk = (list: PageModel[], parent: string) => {
    for (const p of list) {
      if (p.kind === 'document') {
        const own = p.git?.path === readme || (p.path === '' && p.slug === '') ? '' : parent === '' ? p.slug : `${parent}/${p.slug}`;
        out.set(p.id, own);
        walk(p.children, own);
      } else walk(p.children, parent);
    }
  };
  walk(pages, '');
  return out;
}

/**
 * Phase "page file paths": a page whose URL path is unchanged stays in its file (the one that holds it in the target:
 * see `targetFileOf`); a new or moved page gets a path from its parent's folder and its slug (`slug.md`, or
 * `slug/README.md` when it has children), numbered when the path is taken or holds a file the space does not manage.
 * Unchanged means: the URL path it has in `options.base` (the revision the target was imported or exported as), or,
 * for a page the base does not have, the one stored with the page (its URL path when it was imported).
 */
export function layOutPages(
  ctx: Pick<ExportContext, 'target' | 'options' | 'revision' | 'docs' | 'basePages' | 'urlPaths' | 'paths' | 'taken' | 'moved'>,
): void {
  const { target, options, revision, basePages, urlPaths, paths, taken, moved } = ctx;
  const { config } = revision;
  urlPathsOf(revision.pages, config.readme, urlPaths);
  const baseUrlPaths = options.base ? urlPathsOf(options.base.pages, options.base.config.readme) : undefined;
  // 1. pages staying where they are
  for (const p of ctx.docs) {
    const file = targetFileOf(options, p);
    if (file === undefined || taken.has(file)) continue;
    const was = baseUrlPaths?.get(p.id) ?? (p.git ? p.path : undefined);
    if (urlPaths.get(p.id) === was) {
      paths.set(p.id, file);
      taken.add(file);
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
        const left = targetFileOf(options, p);
        if (left !== undefined) moved.set(p.id, left);
      }
      const childDir = basename(path).toLowerCase() === 'readme.md' ? dirname(path) : joinPath(dirname(path), basename(path).replace(/\.md$/i, ''));
      place(p.children, childDir);
    }
  };
  place(revision.pages, config.root);
}
