/**
 * Git tree → revision model. Reads `.gitbook.yaml`, SUMMARY.md (or infers the TOC from folders),
 * the page files listed there and the space files under `.gitbook/assets` / `.gitbook/includes`.
 * Incremental: with `previous`, a page whose blob oid is unchanged is reused without reading it.
 * The phases run in this order on one shared context (`./context.ts`).
 */
import type { ImportOptions, ImportResult, SourceTree } from '../model.js';
import { createImportContext } from './context.js';
import { importFiles } from './files.js';
import { loadPageContents } from './page-contents.js';
import { assignPageIds } from './page-ids.js';
import { checkPageLimit } from './page-limit.js';
import { buildPageTree } from './page-tree.js';
import { reportUnlisted } from './unlisted.js';
import { resolveRedirects } from './redirects.js';
import { resolveReferences } from './references.js';
import { importResult } from './result.js';
import { readToc } from './toc.js';
import { setUrlPaths } from './url-paths.js';

export async function importTree(tree: SourceTree, options: ImportOptions = {}): Promise<ImportResult> {
  const ctx = await createImportContext(tree, options);
  importFiles(ctx);
  await readToc(ctx);
  buildPageTree(ctx);
  checkPageLimit(ctx);
  assignPageIds(ctx);
  await loadPageContents(ctx);
  setUrlPaths(ctx);
  resolveReferences(ctx);
  resolveRedirects(ctx);
  reportUnlisted(ctx);
  return importResult(ctx);
}
