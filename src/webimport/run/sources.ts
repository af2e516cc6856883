/**
 * What a run imports, before it becomes a revision: a tree in GitBook format and the bytes of its files. A website
 * run's tree is made from the crawl's checkpoints (../build-source.ts), a file run's from its uploads
 * (src/fileimport/uploads.ts); both are converted in the parse pool.
 */
import type { SourceTree } from '../../format/index.js';
import { fileImportLimits } from '../../fileimport/index.js';
import { convertUploads, uploadedFiles } from '../../fileimport/uploads.js';
import type { BlobSource } from '../../revision/builder.js';
import type { JsonObject } from '../../store/index.js';
import { buildSiteSource } from '../build-source.js';
import { WebImportNoPagesError } from '../errors.js';
import { onPool, type ImportRunContext } from './context.js';

export interface ImportedSource {
  tree: SourceTree;
  warnings: JsonObject[];
  /** The content of the tree's file at `path` (bytes, or a stored blob). */
  fileBytes(path: string): Promise<BlobSource | undefined>;
  importedResources: number;
  totalResources: number;
}

/** The run's source, by its type. */
export function importedSource(c: ImportRunContext): Promise<ImportedSource> {
  const source = c.run.source;
  return source.type === 'website' ? websiteSource(c, source.url) : fileSource(c, source.files);
}

/** A website run's tree: the crawl's checkpoints converted in the parse pool and laid out as a GitBook source tree. */
async function websiteSource({ deps, run, progress }: ImportRunContext, startUrl: string): Promise<ImportedSource> {
  const { store } = deps;
  const urls = await store.imports.urls(run.id);
  const counts = await store.imports.counts(run.id);
  const pool = deps.parsePool();
  const built = await buildSiteSource({
    startUrl,
    urls,
    blobs: store.blobs,
    convert: (html, options) => pool.runWith(onPool(progress), 'html.convert', html, options),
    concurrency: Math.max(1, pool.threads),
    onProgress: (done, total, current) =>
      progress.report({ phase: 'converting', item: current, loaded: done, total, importedResources: counts.done, totalResources: counts.total }),
    ...onPool(progress),
  });
  if (built.pages === 0) throw new WebImportNoPagesError(startUrl);
  return {
    tree: built.tree,
    warnings: built.warnings,
    fileBytes: async (path) => {
      const hash = built.assetBlobs.get(path);
      return hash ? { hash } : undefined;
    },
    importedResources: counts.done,
    totalResources: counts.total,
  };
}

/** A file run's tree: its uploads, each converted in the parse pool, in the order given. */
async function fileSource({ deps, run, progress }: ImportRunContext, keys: readonly string[]): Promise<ImportedSource> {
  const uploads = await uploadedFiles(deps.store, run.organizationId, keys);
  const pool = deps.parsePool();
  const { tree, warnings } = await convertUploads(uploads, {
    blobs: deps.store.blobs,
    convert: (file) => pool.runWith(onPool(progress), 'file.convert', file, fileImportLimits(deps.config)),
    onProgress: (done, total, current) => progress.report({ phase: 'converting', item: current, importedResources: done, totalResources: total }),
  });
  return {
    tree,
    warnings: warnings.map((w) => ({ code: w.code, message: w.message, file: w.file })),
    fileBytes: async (path) => tree.get(path)?.read(),
    importedResources: uploads.length,
    totalResources: uploads.length,
  };
}
