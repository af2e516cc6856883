import { documents } from '../../format/index.js';
import type { ParsedImport } from './context.js';

/** The bytes the new revision stores, each by its stored hash when the previous revision has it. */
export interface ImportBytes {
  /** Pages reused from the previous revision: the body it stored (their markdown was not read). */
  textBodies: Map<string, { hash: string }>;
  /** Pages kept as raw bytes (too large, not UTF-8, binary): their bytes become the page body, as they are. */
  rawPageBytes: Map<string, Uint8Array | { hash: string }>;
  /** File bytes: the stored blob when the git blob did not change, else read from the tree. */
  fileBytes: Map<string, Uint8Array | { hash: string }>;
  /** Files read from the tree (changed since the previous revision). */
  filesChanged: number;
}

export async function gatherBytes(run: ParsedImport): Promise<ImportBytes> {
  const { imported, previous, counted } = run;
  // Pages reused from the previous revision: the body it stored (their markdown was not read).
  const textBodies = new Map<string, { hash: string }>();
  for (const [pageId, fromId] of imported.reusedFrom) {
    const hash = previous?.bodyHashes.get(fromId);
    if (hash) textBodies.set(pageId, { hash });
  }
  // Pages kept as raw bytes (too large, not UTF-8, binary): their bytes become the page body, as they are.
  const rawPageBytes = new Map<string, Uint8Array | { hash: string }>();
  for (const page of documents(imported.revision.pages)) {
    if (!page.raw || !page.git) continue;
    const known = previous?.hashByGitOid.get(page.git.oid);
    const entry = counted.get(page.git.path);
    if (known) rawPageBytes.set(page.id, { hash: known });
    else if (entry) rawPageBytes.set(page.id, await entry.read());
  }

  // File bytes: reuse the stored blob when the git blob did not change, else read it from the tree.
  const fileBytes = new Map<string, Uint8Array | { hash: string }>();
  let filesChanged = 0;
  for (const f of imported.revision.files) {
    if (!f.git) continue;
    const known = previous?.hashByGitOid.get(f.git.oid);
    if (known) {
      fileBytes.set(f.id, { hash: known });
      continue;
    }
    const entry = counted.get(f.git.path);
    if (!entry) continue;
    fileBytes.set(f.id, await entry.read());
    filesChanged++;
  }
  return { textBodies, rawPageBytes, fileBytes, filesChanged };
}
