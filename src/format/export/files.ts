import { BlobUnavailableError, FormatWarningCodes, warning } from '../errors.js';
import { isWithin, joinPath } from '../paths.js';
import type { ExportContext } from './context.js';

/**
 * Phase "files": an asset no page references any more is removed; a new, changed or moved space file is written
 * (from the target's blob of the same content, else `readBlob`); a space file removed from the model is deleted.
 */
export async function writeFiles(
  ctx: Pick<ExportContext, 'target' | 'options' | 'revision' | 'warnings' | 'changes' | 'baseFiles' | 'referencedNow' | 'blobs'>,
): Promise<void> {
  const { target, options, revision, warnings, changes, referencedNow } = ctx;
  const assetsDir = joinPath(revision.config.root, '.gitbook/assets');
  const keptFiles: typeof revision.files = [];
  const filePathSet = new Set(revision.files.map((f) => f.path));
  for (const f of revision.files) {
    if (f.role === 'asset' && f.referenced && !referencedNow.has(f.id)) {
      if (target.has(f.path)) changes.set(f.path, null);
      if (f.git && f.git.path !== f.path && target.has(f.git.path) && !filePathSet.has(f.git.path)) changes.set(f.git.path, null);
      continue;
    }
    keptFiles.push(f);
    const current = target.get(f.path);
    if (f.git && current?.oid === f.git.oid) continue;
    if (!f.git) {
      warnings.push(warning(FormatWarningCodes.ASSET_MISSING, `file ${f.path} has no content (no git source)`, { path: f.path }));
      continue;
    }
    const from = target.has(f.git.path) && target.get(f.git.path)!.oid === f.git.oid ? f.git.path : ctx.blobs.findByOid(f.git.oid);
    const bytes = from !== undefined ? await target.get(from)!.read() : options.readBlob ? await options.readBlob(f.git.oid) : null;
    if (!bytes) throw new BlobUnavailableError(f.git.oid, f.path);
    changes.set(f.path, bytes);
    if (f.git.path !== f.path && target.has(f.git.path) && !filePathSet.has(f.git.path)) changes.set(f.git.path, null);
    f.git = { oid: f.git.oid, path: f.path };
  }
  for (const old of ctx.baseFiles) {
    if (!filePathSet.has(old) && isWithin(old, assetsDir) && target.has(old)) changes.set(old, null);
  }
  for (const f of keptFiles) f.referenced = referencedNow.has(f.id) || (f.referenced && f.role !== 'asset');
  revision.files = keptFiles;
}
