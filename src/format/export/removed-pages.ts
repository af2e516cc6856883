import type { ExportContext } from './context.js';

/**
 * Phase "moved and deleted pages": the file a moved page leaves is removed unless another page now lives there, as is
 * every managed page file no page uses any more; URL paths follow the new layout.
 */
export function removeOldPageFiles(ctx: Pick<ExportContext, 'target' | 'changes' | 'docs' | 'basePages' | 'urlPaths' | 'paths' | 'taken' | 'moved'>): void {
  const { target, changes, docs, taken } = ctx;
  for (const [id, old] of ctx.moved) {
    if (!taken.has(old) && target.has(old)) changes.set(old, null);
    const p = docs.find((d) => d.id === id);
    if (p && p.markdown === null && p.git) p.git = { oid: p.git.oid, path: ctx.paths.get(id)! };
  }
  for (const old of ctx.basePages) {
    if (!taken.has(old) && target.has(old) && !changes.has(old)) changes.set(old, null);
  }
  for (const p of docs) p.path = ctx.urlPaths.get(p.id) ?? p.path;
}
