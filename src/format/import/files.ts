import { contentTypeOf } from '../content-type.js';
import type { FileModel, SourceEntry } from '../model.js';
import { basename, isWithin, joinPath } from '../paths.js';
import type { ImportContext } from './context.js';

/**
 * Phase "files": the space files under `.gitbook/assets` and `.gitbook/includes`. Ids by path first, then by
 * content (moved files keep their id), then new.
 */
export function importFiles(ctx: Pick<ImportContext, 'tree' | 'config' | 'prev' | 'ids' | 'files' | 'filesByPath'>): void {
  const { tree, prev, ids: claims } = ctx;
  const assetsDir = joinPath(ctx.config.root, '.gitbook/assets');
  const includesDir = joinPath(ctx.config.root, '.gitbook/includes');
  const pending: Array<[string, SourceEntry, FileModel['role']]> = [];
  for (const [path, entry] of tree) {
    if (isWithin(path, assetsDir) && path !== assetsDir) pending.push([path, entry, 'asset']);
    else if (isWithin(path, includesDir) && path !== includesDir) pending.push([path, entry, 'include']);
  }
  const ids = new Map<string, string>();
  for (const [path] of pending) {
    const p = prev.filesByPath.get(path);
    if (p && !claims.has(p.id)) ids.set(path, claims.claim(p.id));
  }
  for (const [path, entry] of pending) {
    if (ids.has(path)) continue;
    const p = prev.filesByOid.get(entry.oid);
    ids.set(path, claims.claim(p?.id));
  }
  for (const [path, entry, role] of pending) {
    const name = basename(path);
    const f: FileModel = { id: ids.get(path)!, name, path, contentType: contentTypeOf(name), role, referenced: false, git: { oid: entry.oid, path } };
    if (entry.size !== undefined) f.size = entry.size;
    ctx.files.push(f);
    ctx.filesByPath.set(path, f.id);
  }
}
