/**
 * The build's conversion: the run's source tree through the git converter (`importTree`, pages parsed in the parse
 * pool), with the bytes of its files and raw pages, and every warning of the run so far.
 */
import { documents, importTree, type ImportResult } from '../../format/index.js';
import { poolPageCodec } from '../../parse-threads/page-codec.js';
import type { BlobSource } from '../../revision/builder.js';
import type { JsonObject } from '../../store/index.js';
import { importedSource, type ImportedSource } from './sources.js';
import type { TargetedBuild } from './target.js';

export interface ConvertedBuild extends TargetedBuild {
  readonly made: ImportedSource;
  readonly imported: ImportResult;
  readonly fileBytes: Map<string, BlobSource>;
  readonly rawPageBytes: Map<string, Uint8Array>;
  /** The crawl's, the source's and the converter's warnings. */
  readonly warnings: JsonObject[];
}

export async function convertSource(c: TargetedBuild): Promise<ConvertedBuild> {
  const made = await importedSource(c);
  c.progress.report({ phase: 'storing', item: '' });
  const codec = poolPageCodec(c.deps.parsePool());
  const imported = await importTree(made.tree, { limits: { maxPages: c.deps.config.webimportMaxPages + 1 }, codec });
  const fileBytes = new Map<string, BlobSource>();
  for (const f of imported.revision.files) {
    const bytes = f.git ? await made.fileBytes(f.git.path) : undefined;
    if (bytes) fileBytes.set(f.id, bytes);
  }
  const rawPageBytes = new Map<string, Uint8Array>();
  for (const page of documents(imported.revision.pages)) {
    if (!page.raw || !page.git) continue;
    const entry = made.tree.get(page.git.path);
    if (entry) rawPageBytes.set(page.id, await entry.read());
  }
  const warnings: JsonObject[] = [
    ...(c.run.warnings as JsonObject[]),
    ...made.warnings,
    ...imported.warnings.map((w) => ({ code: w.code, message: w.message, ...(w.path ? { path: w.path } : {}) })),
  ];
  return { ...c, made, imported, fileBytes, rawPageBytes, warnings };
}
