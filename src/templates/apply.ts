/**
 * Applying a template, in two idempotent steps (the workflow `space/<id>/template/<key>` runs them):
 * 1. `buildTemplateRevision`: the target's content (the primary revision, or a change request's) merged with the
 *    template's (`mergeTemplate`), stored as a revision whose idempotency key is the request's: the same request
 *    built again returns the same revision, never a second one;
 * 2. `publishTemplateRevision`: makes it the space's primary revision (or the change request's) by compare-and-set
 *    against the base it was built on. A revision already published (current, or an ancestor of the current one)
 *    counts as done; a base that moved meanwhile is a conflict, and the workflow builds again on the new base.
 */
import { ConflictError, NotFoundError } from '../errors.js';
import { toEditable, toFileInputs, toPageInputs } from '../change-requests/tree.js';
import { inlinePageCodec, type FormatWarning, type PageCodecRunner } from '../format/index.js';
import type { Store } from '../store/index.js';
import { findTemplate, type CatalogOptions, type TemplateEntry } from './catalog.js';
import { templateContent } from './content.js';
import { TemplateContentRefError } from './errors.js';
import { mergeTemplate, relinkFiles, type SpaceContent } from './merge.js';

export type ContentRefs = Record<string, { kind: 'file'; file: string }>;

export interface TemplateTarget {
  organizationId: string;
  spaceId: string;
  changeRequestId?: string;
}

/** The revision a template goes on top of: the change request's, or the space's primary one (null: none yet). */
export async function targetBase(store: Store, target: TemplateTarget): Promise<string | null> {
  const space = await store.spaces.get(target.spaceId);
  if (!space || space.organizationId !== target.organizationId) throw new NotFoundError('space', target.spaceId);
  if (!target.changeRequestId) return space.revisionId;
  const cr = await store.changeRequests.get(target.spaceId, target.changeRequestId);
  if (!cr) throw new NotFoundError('change request', target.changeRequestId);
  if (cr.status !== 'open' && cr.status !== 'draft')
    throw new ConflictError(`change request ${target.changeRequestId} is ${cr.status}: a template can only go into an open change request`);
  return cr.revisionId;
}

/** The bytes that replace the template's placeholder files (`params.contentRefs`), read from the space's files. */
export async function contentRefReplacements(
  store: Store,
  template: TemplateEntry,
  baseRevisionId: string | null,
  refs: ContentRefs | undefined,
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (const [name, ref] of Object.entries(refs ?? {})) {
    const placeholder = template.manifest?.placeholders[name];
    if (!placeholder) {
      const known = Object.keys(template.manifest?.placeholders ?? {});
      throw new TemplateContentRefError(`template ${template.id} has no placeholder "${name}"${known.length ? ` (it has: ${known.join(', ')})` : ''}`, {
        name,
      });
    }
    if (!ref || typeof ref !== 'object' || ref.kind !== 'file' || typeof ref.file !== 'string')
      throw new TemplateContentRefError(`contentRefs.${name} must be { "kind": "file", "file": "<file id>" }`, { name });
    const file = baseRevisionId ? await store.revisions.file(baseRevisionId, ref.file) : null;
    const bytes = file?.hash ? await store.blobs.get(file.hash) : null;
    if (!bytes) throw new TemplateContentRefError(`contentRefs.${name}: the space has no file ${ref.file}`, { name, file: ref.file });
    out.set(placeholder, bytes);
  }
  return out;
}

export interface BuiltTemplateRevision {
  revisionId: string;
  baseRevisionId: string | null;
  created: boolean;
  addedPages: number;
  warnings: FormatWarning[];
}

export async function buildTemplateRevision(
  store: Store,
  input: TemplateTarget & { templateId: string; contentRefs?: ContentRefs; idempotencyKey: string },
  options: CatalogOptions & { codec?: PageCodecRunner } = {},
): Promise<BuiltTemplateRevision> {
  const base = await targetBase(store, input);
  const template = await findTemplate(store, input.organizationId, input.templateId, options);
  const replacements = await contentRefReplacements(store, template, base, input.contentRefs);
  const content = await templateContent(store, template, { ...(options.codec ? { codec: options.codec } : {}), replacements });
  let baseContent: SpaceContent | null = null;
  if (base) {
    const [pages, files, revision] = await Promise.all([store.revisions.pages(base), store.revisions.files(base), store.revisions.get(base)]);
    baseContent = { pages: toEditable(pages), files, data: revision?.data ?? {} };
  }
  const merged = mergeTemplate(baseContent, content, { folder: template.id.replace(/^space:/, 'template-') });
  const codec = options.codec ?? inlinePageCodec;
  await relinkFiles(merged, {
    read: async (hash) => new TextDecoder().decode((await store.blobs.get(hash)) ?? new Uint8Array()),
    write: (text) => store.blobs.put(new TextEncoder().encode(text)),
    encode: (text, rewrites) => codec.encode(text, null, rewrites),
  });
  const { id, created } = await store.revisions.create({
    spaceId: input.spaceId,
    parents: base ? [base] : [],
    type: 'template',
    data: merged.data,
    pages: toPageInputs(merged.pages),
    files: toFileInputs(merged.files),
    idempotencyKey: input.idempotencyKey,
  });
  const stored = created ? null : await store.revisions.get(id);
  return {
    revisionId: id,
    baseRevisionId: stored ? (stored.parents[0] ?? null) : base,
    created,
    addedPages: merged.addedPages.length,
    warnings: content.warnings,
  };
}

/** How many ancestors of the current revision are searched for an already published application. */
const HISTORY_DEPTH = 200;

async function isAncestorOrSelf(store: Store, current: string | null, wanted: string): Promise<boolean> {
  let id = current;
  for (let i = 0; id && i < HISTORY_DEPTH; i++) {
    if (id === wanted) return true;
    id = (await store.revisions.get(id))?.parents[0] ?? null;
  }
  return false;
}

export async function publishTemplateRevision(
  store: Store,
  input: TemplateTarget & { revisionId: string; baseRevisionId: string | null },
): Promise<'published' | 'already-published' | 'conflict'> {
  const current = await targetBase(store, input);
  if (await isAncestorOrSelf(store, current, input.revisionId)) return 'already-published';
  if (current !== input.baseRevisionId) return 'conflict';
  try {
    if (input.changeRequestId) await store.changeRequests.setRevision(input.changeRequestId, input.revisionId, input.baseRevisionId!);
    else await store.spaces.setPrimaryRevision(input.spaceId, input.revisionId, { expected: input.baseRevisionId });
    return 'published';
  } catch (err) {
    if (err instanceof ConflictError) return 'conflict';
    throw err;
  }
}
