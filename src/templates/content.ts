/**
 * A template's content as an editable page tree and files, with bodies and bytes in the blob store:
 * - a folder (built-in or operator): read as a Git Sync tree and imported by the same converter as git sync
 *   (`importTree`, pages parsed through the given codec: the parse pool in a worker), placeholders replaced first;
 * - an organization template space: the pages and files of its current revision.
 */
import type { EditablePage } from '../change-requests/tree.js';
import { toEditable } from '../change-requests/tree.js';
import { importTree, memoryEntry, readWorkingTree, type FormatWarning, type PageCodecRunner } from '../format/index.js';
import { modelToRevisionInput } from '../revision/records.js';
import type { BlobSource } from '../revision/builder.js';
import type { FileRecord, JsonObject, PageInput, Store } from '../store/index.js';
import type { TemplateEntry } from './catalog.js';
import { TemplateInvalidError } from './errors.js';
import { MANIFEST_FILE } from './manifest.js';

export interface TemplateContent {
  pages: EditablePage[];
  files: FileRecord[];
  /** Revision-level data of the template (the converter's config and SUMMARY layout). */
  data: JsonObject;
  warnings: FormatWarning[];
}

export async function templateContent(
  store: Store,
  template: TemplateEntry,
  options: { codec?: PageCodecRunner; replacements?: Map<string, Uint8Array> } = {},
): Promise<TemplateContent> {
  if (template.space) {
    const revisionId = template.space.revisionId;
    if (!revisionId) return { pages: [], files: [], data: {}, warnings: [] };
    const [pages, files, revision] = await Promise.all([store.revisions.pages(revisionId), store.revisions.files(revisionId), store.revisions.get(revisionId)]);
    return { pages: toEditable(pages), files, data: revision?.data ?? {}, warnings: [] };
  }
  if (!template.dir) throw new TemplateInvalidError(template.id, 'neither a folder nor a space');
  const tree = await readWorkingTree(template.dir);
  tree.delete(MANIFEST_FILE);
  for (const [path, bytes] of options.replacements ?? []) tree.set(path, memoryEntry(bytes));
  const { revision: model, warnings } = await importTree(tree, options.codec ? { codec: options.codec } : {});
  const fileBytes = new Map<string, BlobSource>();
  for (const f of model.files) {
    const entry = tree.get(f.path);
    if (entry) fileBytes.set(f.id, await entry.read());
  }
  const input = modelToRevisionInput(model, { spaceId: '', parents: [], type: 'template', fileBytes });
  const pages = await Promise.all(input.pages.map((p) => editable(store, p)));
  const files: FileRecord[] = [];
  for (const [position, f] of input.files.entries()) {
    const hash = f.bytes instanceof Uint8Array ? await store.blobs.put(f.bytes) : (f.bytes?.hash ?? null);
    files.push({
      id: f.id,
      name: f.name,
      path: f.path ?? `.gitbook/assets/${f.name}`,
      contentType: f.contentType ?? 'application/octet-stream',
      size: f.size,
      git: f.git ?? null,
      data: f.data ?? {},
      hash,
      position,
    });
  }
  return { pages, files, data: input.data ?? {}, warnings };
}

async function editable(store: Store, p: PageInput): Promise<EditablePage> {
  const bodyHash = p.body instanceof Uint8Array ? await store.blobs.put(p.body) : (p.body?.hash ?? null);
  return {
    id: p.id,
    kind: p.kind,
    title: p.title,
    slug: p.slug ?? null,
    path: p.path ?? null,
    data: p.data ?? {},
    bodyHash,
    children: await Promise.all((p.children ?? []).map((c) => editable(store, c))),
  };
}
