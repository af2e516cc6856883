/**
 * The build's last phases: the revision stored (keyed by the run, so a retry stores nothing twice; under one page,
 * the base revision whole with the imported pages grafted below that page), then made the target's (compare-and-set),
 * and the run's warnings recorded. A cancel seen before either point of no return stops the run there.
 */
import { NotFoundError } from '../../errors.js';
import { graftUnderPage } from '../../revision/graft-under-page.js';
import { modelToRevisionInput } from '../../revision/records.js';
import type { RevisionInput } from '../../store/index.js';
import { WebImportTargetGoneError } from '../errors.js';
import { MAX_WARNINGS } from './context.js';
import type { ConvertedBuild } from './convert.js';

export interface BuildOutcome {
  revisionId: string;
  pages: number;
  files: number;
  importedResources: number;
  totalResources: number;
  warnings: number;
}

export async function storeBuild(c: ConvertedBuild): Promise<BuildOutcome> {
  const { store } = c.deps;
  // A cancel that arrived during the conversion stops here: nothing of the run reaches the space.
  await c.progress.control.assertNotCancelled('import');
  const { id: revisionId } = await store.revisions.create(await revisionInput(c));
  await c.progress.control.assertNotCancelled('import');
  await landRevision(c, revisionId);
  await store.imports.update(c.run.id, { warnings: c.warnings.slice(0, MAX_WARNINGS), revisionId });
  return {
    revisionId,
    pages: c.imported.stats.pages,
    files: c.imported.stats.files,
    importedResources: c.made.importedResources,
    totalResources: c.made.totalResources,
    warnings: c.warnings.length,
  };
}

async function revisionInput(c: ConvertedBuild): Promise<RevisionInput> {
  const { run, base } = c;
  const input = modelToRevisionInput(c.imported.revision, {
    spaceId: run.spaceId,
    parents: base ? [base] : [],
    type: run.source.type === 'website' ? 'website-import' : 'file-import',
    idempotencyKey: `content-import/${run.id}`,
    fileBytes: c.fileBytes,
    rawPageBytes: c.rawPageBytes,
  });
  if (!run.pageId || !base) return input;
  // Under one page: the base revision whole, the imported pages added below that page.
  const { store } = c.deps;
  const [baseRevision, basePages, baseFiles] = await Promise.all([store.revisions.get(base), store.revisions.pages(base), store.revisions.files(base)]);
  let grafted: ReturnType<typeof graftUnderPage>;
  try {
    grafted = graftUnderPage({ pages: basePages, files: baseFiles }, run.pageId, input);
  } catch (err) {
    if (err instanceof NotFoundError) throw new WebImportTargetGoneError(`page ${run.pageId} is no longer in the target`);
    throw err;
  }
  return { ...input, data: baseRevision?.data ?? {}, pages: grafted.pages, files: grafted.files };
}

/** The change request's revision, or the space's primary one (a retry that finds it so already is done). */
async function landRevision({ deps, space, cr }: ConvertedBuild, revisionId: string): Promise<void> {
  const { store } = deps;
  if (cr) {
    if (cr.revisionId !== revisionId) await store.changeRequests.setRevision(cr.id, revisionId, cr.revisionId);
  } else if (space.revisionId !== revisionId) {
    try {
      await store.spaces.setPrimaryRevision(space.id, revisionId, { expected: space.revisionId });
    } catch (err) {
      const now = await store.spaces.get(space.id);
      if (now?.revisionId !== revisionId) throw err;
    }
  }
}
