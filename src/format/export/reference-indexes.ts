import type { ReferenceIndex } from '../resolve-reference.js';
import type { ExportContext } from './context.js';

/** Pages and files by path in the exported layout (where references must lead). */
export function exportedIndex(ctx: Pick<ExportContext, 'target' | 'revision' | 'paths'>): ReferenceIndex {
  return {
    pagesByPath: new Map([...ctx.paths].map(([id, p]) => [p, id])),
    filesByPath: new Map(ctx.revision.files.map((f) => [f.path, f.id])),
    exists: (p) => ctx.target.has(p),
  };
}

/**
 * The layout the revision was imported from. Destinations in an edited page's markdown are written relative to where
 * the page was (its git path), among the pages and files as they were; a new page's relative to where it goes.
 */
export function sourceIndex(ctx: Pick<ExportContext, 'target' | 'revision' | 'docs' | 'paths'>): ReferenceIndex {
  const { revision } = ctx;
  return {
    pagesByPath: new Map(ctx.docs.map((p) => [p.git?.path ?? ctx.paths.get(p.id)!, p.id])),
    filesByPath: new Map([
      ...revision.files.flatMap((f) => (f.git ? [[f.git.path, f.id] as const] : [])),
      ...revision.files.map((f) => [f.path, f.id] as const),
    ]),
    exists: (p) => ctx.target.has(p),
  };
}
