import { ValidationError } from '../errors.js';
import { documentToMarkdown, DocumentInvalidError } from '../document/index.js';
import { inlinePageCodec, leadingEmoji, type DecodedPageSummary } from '../format/index.js';
import { newId } from '../ids.js';
import type { FileRecord, JsonObject, Store } from '../store/index.js';
import { allIds, locate, toEditable, toFileInputs, toPageInputs, type EditablePage } from './tree.js';

/** One change of `POST …/change-requests/{id}/content` (the official spec's `ChangeRequestContentChange`). */
export type ContentChange =
  | {
      operation: 'insert_page';
      into?: string;
      at?: number;
      ref?: string;
      title?: string;
      slug?: string;
      emoji?: string;
      description?: string;
      document: { markdown?: string; document?: unknown };
    }
  | {
      operation: 'update_page';
      page: string;
      title?: string;
      slug?: string;
      emoji?: string;
      description?: string;
      into?: string | null;
      at?: number;
      document?: { markdown?: string; document?: unknown };
    }
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string; block?: string[] }
  | { operation: 'insert_files'; files: Array<{ ref?: string; name: string; contentType?: string; base64?: string; url?: string }> };

export type AffectedPage =
  { object: 'created_page'; ref?: string; id: string } | { object: 'updated_page'; id: string } | { object: 'deleted_page'; id: string };

const MAX_BASE64_BYTES = 1024 * 1024;

/** A page whose path must be recomputed (moved or renamed), with its descendants. */
function clearPaths(page: EditablePage): void {
  if (page.kind !== 'link') page.path = null;
  for (const child of page.children) clearPaths(child);
}

/**
 * One entry per page, in the order the batch first touched it: a page created then updated stays
 * `created_page`; one created then deleted is not listed; one updated then deleted is `deleted_page`.
 */
function affectedPages(touched: AffectedPage[]): AffectedPage[] {
  const byId = new Map<string, AffectedPage | null>();
  for (const t of touched) {
    const first = byId.get(t.id);
    if (first === undefined) byId.set(t.id, t);
    else if (first === null) continue;
    else if (t.object === 'deleted_page') byId.set(t.id, first.object === 'created_page' ? null : t);
  }
  return [...byId.values()].filter((a): a is AffectedPage => a !== null);
}

/** Metadata read from a page file: its front matter (description, hidden, …) and `# H1` title. */
async function metadataFromMarkdown(
  markdown: string,
  decode: (markdown: string) => Promise<DecodedPageSummary>,
): Promise<{ title?: string; data: JsonObject }> {
  const decoded = await decode(markdown);
  const f = decoded.fields;
  const data: JsonObject = { hidden: f.hidden, noIndex: f.noIndex, frontMatterValid: f.frontMatterValid };
  if (f.description !== undefined) data.description = f.description;
  if (f.icon !== undefined) data.icon = f.icon;
  if (f.layout !== undefined) data.layout = f.layout as JsonObject;
  if (f.frontMatter) data.frontMatter = f.frontMatter as JsonObject;
  if (f.title) {
    const emoji = leadingEmoji(f.title);
    if (emoji) data.emoji = emoji;
  }
  return { ...(f.title ? { title: f.title } : {}), data };
}

/** How a JSON document becomes a page's markdown (`original`: the page's current markdown, whose habits are kept). */
export type DocumentToMarkdown = (document: unknown, options: { original?: string; title?: string }) => Promise<string>;

const inlineFromDocument: DocumentToMarkdown = async (document, options) => {
  try {
    return documentToMarkdown(document, options);
  } catch (err) {
    if (err instanceof DocumentInvalidError) throw new ValidationError(`document: ${err.message}`);
    throw err;
  }
};

/** The markdown of a change's `document` member: `{ markdown }` as is, `{ document }` (GitBook's JSON document) converted. */
async function markdownOf(
  doc: { markdown?: string; document?: unknown } | undefined,
  what: string,
  fromDocument: DocumentToMarkdown,
  context: { original?: string; title?: string } = {},
): Promise<string | undefined> {
  if (doc === undefined) return undefined;
  if (typeof doc.markdown === 'string') return doc.markdown;
  if (doc.document !== undefined && doc.document !== null) {
    try {
      return await fromDocument(doc.document, context);
    } catch (err) {
      if (err instanceof ValidationError) throw new ValidationError(`${what}: ${err.message}`, err.data);
      throw err;
    }
  }
  throw new ValidationError(`${what}: a document is { "markdown": "…" } or { "document": { "object": "document", "nodes": […] } }`);
}

/**
 * A slug the client asked for (or a moved page's own) must be free among the new siblings. A page without one
 * (`null`) gets its title's slug from the revision builder, made unique there with `-2`, `-3`, ….
 */
function checkSlugFree(siblings: EditablePage[], wanted: string | null, self: string): string | null {
  if (wanted === null || !siblings.some((s) => s.slug === wanted && s.id !== self)) return wanted;
  throw new ValidationError(`slug "${wanted}" is already used by a sibling page`);
}

/** How a page's markdown is parsed (default: in this thread); the API parses it in its parse pool. */
export interface ApplyOptions {
  decode?: (markdown: string) => Promise<DecodedPageSummary>;
  fromDocument?: DocumentToMarkdown;
  initialRevisionId?: string;
}

/**
 * Applies a batch of changes to `baseRevisionId` and stores the result as a new revision (`type: edits`,
 * parent: the base). All or nothing: a bad change is a ValidationError and nothing is written.
 */
export async function applyContentChanges(
  store: Store,
  spaceId: string,
  baseRevisionId: string,
  changes: ContentChange[],
  options: ApplyOptions = {},
): Promise<{ revisionId: string; affected: AffectedPage[]; insertedFiles: string[] }> {
  const edit: Edit = {
    store,
    spaceId,
    baseRevisionId,
    initialRevisionId: options.initialRevisionId,
    pages: toEditable(await store.revisions.pages(baseRevisionId)),
    files: [...(await store.revisions.files(baseRevisionId))],
    touched: [],
    insertedFiles: [],
    decode: options.decode ?? ((markdown: string) => inlinePageCodec.decode(markdown)),
    fromDocument: options.fromDocument ?? inlineFromDocument,
  };
  for (const [i, change] of changes.entries()) {
    const where = `changes[${i}] (${change.operation})`;
    if (change.operation === 'insert_page') await insertPage(edit, change, where);
    else if (change.operation === 'update_page') await updatePage(edit, change, where);
    else if (change.operation === 'delete_page') deletePage(edit, change, where);
    else if (change.operation === 'revert_page') await revertPage(edit, change, where);
    else if (change.operation === 'insert_files') await insertFiles(edit, change, where);
    else throw new ValidationError(`${where}: unknown operation`);
  }
  // Revision-level data (the converter's config and SUMMARY layout) carries over, so a later export keeps the tree.
  const base = await store.revisions.get(baseRevisionId);
  const { id } = await store.revisions.create({
    spaceId,
    parents: [baseRevisionId],
    type: 'edits',
    data: base?.data ?? {},
    pages: toPageInputs(edit.pages),
    files: toFileInputs(edit.files),
  });
  return { revisionId: id, affected: affectedPages(edit.touched), insertedFiles: edit.insertedFiles };
}

/** A batch being applied: the tree and files it edits in place, and what it touched so far. */
interface Edit {
  store: Store;
  spaceId: string;
  baseRevisionId: string;
  initialRevisionId: string | undefined;
  pages: EditablePage[];
  files: FileRecord[];
  touched: AffectedPage[];
  insertedFiles: string[];
  decode: (markdown: string) => Promise<DecodedPageSummary>;
  fromDocument: DocumentToMarkdown;
}
type Change<K extends ContentChange['operation']> = Extract<ContentChange, { operation: K }>;

const encoder = new TextEncoder();

/** The current markdown of a page (a document edit keeps its front matter, title and habits). */
async function currentMarkdown(store: Store, page: EditablePage): Promise<string | undefined> {
  if (page.kind !== 'document' || !page.bodyHash || (page.data as { raw?: unknown }).raw) return undefined;
  const bytes = await store.blobs.get(page.bodyHash);
  return bytes ? new TextDecoder().decode(bytes) : undefined;
}

/** Puts `page` among the children of `into` (its id; null or undefined: the root) at `at` (default: last). */
function place(pages: EditablePage[], page: EditablePage, into: string | null | undefined, at: number | undefined): void {
  let siblings = pages;
  if (into !== undefined && into !== null) {
    const parent = locate(pages, into);
    if (!parent) throw new ValidationError(`into: no page ${into}`);
    if (parent.page.kind === 'link') throw new ValidationError(`into: page ${into} is a link and cannot hold pages`);
    siblings = parent.page.children;
  }
  page.slug = checkSlugFree(siblings, page.slug, page.id);
  const index = at === undefined ? siblings.length : Math.min(at, siblings.length);
  siblings.splice(index, 0, page);
}

async function insertPage(edit: Edit, change: Change<'insert_page'>, where: string): Promise<void> {
  const markdown = (await markdownOf(change.document, where, edit.fromDocument, change.title !== undefined ? { title: change.title } : {})) ?? '';
  const meta = await metadataFromMarkdown(markdown, edit.decode);
  const title = meta.title ?? change.title ?? 'Untitled';
  const data: JsonObject = { ...meta.data };
  if (change.description !== undefined && data.description === undefined) data.description = change.description;
  if (change.emoji !== undefined && data.emoji === undefined) data.emoji = change.emoji;
  const bodyHash = await edit.store.blobs.put(encoder.encode(markdown));
  const page: EditablePage = { id: newId(), kind: 'document', title, slug: change.slug ?? null, path: null, data, bodyHash, children: [] };
  place(edit.pages, page, change.into, change.at);
  edit.touched.push({ object: 'created_page', id: page.id, ...(change.ref ? { ref: change.ref } : {}) });
}

/** A page's new document, then its fields, then its move. */
async function updatePage(edit: Edit, change: Change<'update_page'>, where: string): Promise<void> {
  const found = locate(edit.pages, change.page);
  if (!found) throw new ValidationError(`${where}: no page ${change.page}`);
  const page = found.page;
  const markdown = await markdownOf(change.document, where, edit.fromDocument, { original: await currentMarkdown(edit.store, page) });
  const meta = markdown !== undefined ? await metadataFromMarkdown(markdown, edit.decode) : undefined;
  if (markdown !== undefined && meta) {
    if (page.kind !== 'document') throw new ValidationError(`${where}: page ${page.id} is a ${page.kind} and has no document`);
    // The markdown's front matter and heading replace the metadata; without a document it stays as it was.
    const kept: JsonObject = { ...page.data };
    // A page kept as raw bytes (not readable as a page) becomes a page of text: its new markdown is its body.
    for (const k of ['description', 'icon', 'layout', 'frontMatter', 'hidden', 'noIndex', 'frontMatterValid', 'emoji', 'raw', 'markdownNull']) delete kept[k];
    page.data = { ...kept, ...meta.data };
    if (meta.title) page.title = meta.title;
    page.bodyHash = await edit.store.blobs.put(encoder.encode(markdown));
  }
  // The fields apply unless the document of the same change says otherwise (its `# H1`, its front matter).
  if (change.title !== undefined && !meta?.title) page.title = change.title;
  if (change.description !== undefined && meta?.data.description === undefined) page.data = { ...page.data, description: change.description };
  if (change.emoji !== undefined) page.data = { ...page.data, emoji: change.emoji };
  if (change.slug !== undefined && change.slug !== page.slug) {
    page.slug = checkSlugFree(found.siblings, change.slug, page.id);
    clearPaths(page);
  }
  if (change.into !== undefined || change.at !== undefined) {
    if (typeof change.into === 'string' && allIds([page]).has(change.into))
      throw new ValidationError(`${where}: a page cannot move into itself or one of its descendants`);
    const current = found.siblings.indexOf(page);
    found.siblings.splice(current, 1);
    const into = change.into === undefined ? (found.parent?.id ?? null) : change.into;
    if (into !== (found.parent?.id ?? null)) clearPaths(page);
    // Moved to another parent without `at`: appended at the end; same parent without `at`: stays where it was.
    place(edit.pages, page, into, change.at ?? (change.into === undefined || into === (found.parent?.id ?? null) ? current : undefined));
  }
  edit.touched.push({ object: 'updated_page', id: page.id });
}

function deletePage(edit: Edit, change: Change<'delete_page'>, where: string): void {
  const found = locate(edit.pages, change.page);
  if (!found) throw new ValidationError(`${where}: no page ${change.page}`);
  found.siblings.splice(found.index, 1);
  edit.touched.push({ object: 'deleted_page', id: change.page });
  for (const id of allIds(found.page.children)) edit.touched.push({ object: 'deleted_page', id });
}

/** A page as it was in a revision of the space: removed, restored or its document put back. */
async function revertPage(edit: Edit, change: Change<'revert_page'>, where: string): Promise<void> {
  if (change.block !== undefined) throw new ValidationError(`${where}: reverting single blocks (block) is not supported by Folio; revert the whole page`);
  const revisionId = change.revision ?? edit.initialRevisionId ?? edit.baseRevisionId;
  const target = await edit.store.revisions.get(revisionId);
  if (!target || target.spaceId !== edit.spaceId) throw new ValidationError(`${where}: no revision ${revisionId} in this space`);
  const then = toEditable(await edit.store.revisions.pages(revisionId));
  const before = locate(then, change.page);
  const now = locate(edit.pages, change.page);
  if (!before && !now) throw new ValidationError(`${where}: no page ${change.page} here or in revision ${revisionId}`);
  if (!before) {
    // Added since: removed (with the pages under it).
    now!.siblings.splice(now!.index, 1);
    edit.touched.push({ object: 'deleted_page', id: change.page });
    for (const id of allIds(now!.page.children)) edit.touched.push({ object: 'deleted_page', id });
  } else if (!now) {
    // Deleted since: restored where it was (under its former parent when that still exists), with its own content.
    const restored: EditablePage = { ...before.page, children: [] };
    const parent = before.parent ? locate(edit.pages, before.parent.id) : null;
    const siblings = parent ? parent.page.children : edit.pages;
    restored.slug = siblings.some((s) => s.slug === restored.slug) ? null : restored.slug;
    restored.path = null;
    siblings.splice(Math.min(before.index, siblings.length), 0, restored);
    edit.touched.push({ object: 'created_page', id: restored.id });
  } else {
    // Modified: its document (and what the document carries: title, description, front matter) as it was.
    now.page.kind = before.page.kind;
    now.page.title = before.page.title;
    now.page.data = before.page.data;
    now.page.bodyHash = before.page.bodyHash;
    edit.touched.push({ object: 'updated_page', id: now.page.id });
  }
}

async function insertFiles(edit: Edit, change: Change<'insert_files'>, where: string): Promise<void> {
  for (const file of change.files) {
    if (file.url !== undefined) throw new ValidationError(`${where}: files by url are not supported by Folio; send base64`);
    if (typeof file.base64 !== 'string') throw new ValidationError(`${where}: file ${file.name} needs base64 content`);
    const bytes = Buffer.from(file.base64, 'base64');
    if (bytes.length > MAX_BASE64_BYTES) throw new ValidationError(`${where}: file ${file.name} is larger than 1 MB`);
    if (!file.contentType) throw new ValidationError(`${where}: contentType is required with base64`);
    const hash = await edit.store.blobs.put(new Uint8Array(bytes));
    const id = newId();
    edit.insertedFiles.push(id);
    edit.files.push({
      id,
      name: file.name,
      path: `.gitbook/assets/${file.name}`,
      contentType: file.contentType,
      size: bytes.length,
      git: null,
      data: {},
      hash,
      position: edit.files.length,
    });
  }
}
