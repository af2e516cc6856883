import { FormatWarningCodes, warning } from '../errors.js';
import type { PageModel } from '../model.js';
import { basename, dirname } from '../paths.js';
import type { ImportContext } from './context.js';

/**
 * Phase "slugs and URL paths": a document's slug is its file name (its folder's for a README), its URL path its
 * parent's path and slug; the space's first page (config `readme`) has neither. A missing first page is a warning.
 */
export function setUrlPaths(ctx: Pick<ImportContext, 'tree' | 'config' | 'warnings' | 'pages' | 'pageByPath'>): void {
  const readmePath = ctx.config.readme;
  const setPaths = (list: PageModel[], parentPath: string) => {
    for (const p of list) {
      if (p.kind === 'document') {
        const file = p.git!.path;
        const isReadme = basename(file).toLowerCase() === 'readme.md';
        p.slug = isReadme ? basename(dirname(file)) : basename(file).replace(/\.md$/i, '');
        if (file === readmePath) {
          p.slug = '';
          p.path = '';
        } else p.path = parentPath === '' ? p.slug : `${parentPath}/${p.slug}`;
        setPaths(p.children, p.path);
      } else setPaths(p.children, parentPath);
    }
  };
  setPaths(ctx.pages, '');
  if (!ctx.pageByPath.has(readmePath)) {
    ctx.warnings.push(
      warning(
        FormatWarningCodes.README_MISSING,
        `the first page ${readmePath} is ${ctx.tree.has(readmePath) ? 'not listed in the table of contents' : 'missing'}`,
        { path: readmePath },
      ),
    );
  }
}
