/** Import a tree and export it again onto itself: the basis of `folio roundtrip` and the fidelity tests. */
import { exportRevision } from './export/index.js';
import { importTree } from './import/index.js';
import type { ImportResult, SourceTree } from './model.js';
import { applyChanges } from './source-tree.js';

export interface TreeComparison {
  identical: number;
  changed: string[];
  /** In the original, absent from the output. */
  missing: string[];
  /** In the output, absent from the original. */
  extra: string[];
}

export function compareTrees(original: SourceTree, output: SourceTree): TreeComparison {
  const cmp: TreeComparison = { identical: 0, changed: [], missing: [], extra: [] };
  for (const [path, e] of original) {
    const o = output.get(path);
    if (!o) cmp.missing.push(path);
    else if (o.oid === e.oid) cmp.identical++;
    else cmp.changed.push(path);
  }
  for (const path of output.keys()) if (!original.has(path)) cmp.extra.push(path);
  return cmp;
}

export async function roundtripTree(
  tree: SourceTree,
  options: { projectDirectory?: string; reserialize?: boolean } = {},
): Promise<{ imported: ImportResult; output: SourceTree; changes: Map<string, Uint8Array | null>; comparison: TreeComparison }> {
  const imported = await importTree(tree, options.projectDirectory === undefined ? {} : { projectDirectory: options.projectDirectory });
  const exported = await exportRevision(imported.revision, tree, { reserialize: options.reserialize === true, base: imported.revision });
  const output = applyChanges(tree, exported.changes);
  return { imported, output, changes: exported.changes, comparison: compareTrees(tree, output) };
}
