import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkingTreeError } from './errors.js';
import type { SourceEntry, SourceTree } from './model.js';

/** Git blob oid of some bytes: sha1("blob <len>\0" + bytes), hex. */
export function gitBlobOid(bytes: Uint8Array): string {
  const h = createHash('sha1');
  h.update(`blob ${bytes.byteLength}\0`);
  h.update(bytes);
  return h.digest('hex');
}

/** An in-memory tree entry. */
export function memoryEntry(bytes: Uint8Array, mode = '100644'): SourceEntry {
  return { oid: gitBlobOid(bytes), mode, size: bytes.byteLength, read: async () => bytes };
}

/** Build a SourceTree from path → bytes (or text). */
export function treeFromFiles(files: Record<string, Uint8Array | string> | Map<string, Uint8Array | string>): SourceTree {
  const tree: SourceTree = new Map();
  const entries = files instanceof Map ? [...files] : Object.entries(files);
  for (const [path, content] of entries) {
    tree.set(path, memoryEntry(typeof content === 'string' ? new TextEncoder().encode(content) : content));
  }
  return tree;
}

/** Apply export changes to a tree (returns a new tree). */
export function applyChanges(tree: SourceTree, changes: Map<string, Uint8Array | null>): SourceTree {
  const out: SourceTree = new Map(tree);
  for (const [path, bytes] of changes) {
    if (bytes === null) out.delete(path);
    else out.set(path, memoryEntry(bytes));
  }
  return out;
}

/**
 * Read a working directory into a SourceTree (skips `.git/`). Oids are computed as Git would;
 * symlinks become mode 120000 entries whose content is the link target, as in Git.
 */
export async function readWorkingTree(dir: string): Promise<SourceTree> {
  try {
    const st = await lstat(dir);
    if (!st.isDirectory()) throw new WorkingTreeError(dir, 'not a directory');
  } catch (e) {
    if (e instanceof WorkingTreeError) throw e;
    throw new WorkingTreeError(dir, (e as NodeJS.ErrnoException).code ?? String(e));
  }
  const tree: SourceTree = new Map();
  async function walk(rel: string): Promise<void> {
    const abs = rel === '' ? dir : join(dir, rel);
    const names = (await readdir(abs, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      if (rel === '' && d.name === '.git') continue;
      const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
      const childAbs = join(dir, childRel);
      if (d.isDirectory()) await walk(childRel);
      else if (d.isSymbolicLink()) {
        const bytes = new TextEncoder().encode(await readlink(childAbs));
        tree.set(childRel, memoryEntry(bytes, '120000'));
      } else if (d.isFile()) {
        const bytes = new Uint8Array(await readFile(childAbs));
        const st = await lstat(childAbs);
        tree.set(childRel, { oid: gitBlobOid(bytes), mode: st.mode & 0o111 ? '100755' : '100644', size: bytes.byteLength, read: async () => bytes });
      }
    }
  }
  await walk('');
  return tree;
}
