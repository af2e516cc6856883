/**
 * Revision model → changed files of a Git tree. Unchanged pages keep their bytes; changed pages
 * are regenerated with a minimal diff; SUMMARY.md is rewritten only when the TOC changed; assets
 * no page references any more are removed; unmanaged files are never touched.
 * The phases run in this order on one shared context (`./context.ts`).
 */
import type { ExportOptions, ExportResult, RevisionModel, SourceTree } from '../model.js';
import { writeConfigFile } from './config-file.js';
import { createExportContext } from './context.js';
import { writeFiles } from './files.js';
import { collectManagedPaths } from './managed-paths.js';
import { layOutPages } from './page-layout.js';
import { writePages } from './pages.js';
import { removeOldPageFiles } from './removed-pages.js';
import { writeSummary } from './summary-file.js';
import { validateRevision } from './validate.js';

export async function exportRevision(input: RevisionModel, target: SourceTree, options: ExportOptions = {}): Promise<ExportResult> {
  validateRevision(input);
  const ctx = createExportContext(input, target, options);
  await collectManagedPaths(ctx);
  layOutPages(ctx);
  await writePages(ctx);
  removeOldPageFiles(ctx);
  writeSummary(ctx);
  writeConfigFile(ctx);
  await writeFiles(ctx);
  return { changes: ctx.changes, warnings: ctx.warnings, revision: ctx.revision };
}
