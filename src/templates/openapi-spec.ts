/**
 * The OpenAPI spec a template creates in the organization (`openAPISpec` of its manifest): from the template's own
 * file (or the file a client gave for that placeholder) as text, or from its `sourceURL`. A spec with that slug that
 * the organization already has is left as it is (never overwritten); the caller processes a created one through the
 * OpenAPI pipeline (run number returned).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConflictError } from '../errors.js';
import type { Store } from '../store/index.js';
import { findTemplate, type CatalogOptions } from './catalog.js';
import { contentRefReplacements, targetBase, type ContentRefs, type TemplateTarget } from './apply.js';

export interface TemplateSpec {
  slug: string;
  specId: string;
  /** false: the organization already had a spec with this slug; it was not touched. */
  created: boolean;
  /** The processing run to start (only when created). */
  run?: number;
}

export async function createTemplateSpec(
  store: Store,
  input: TemplateTarget & { templateId: string; contentRefs?: ContentRefs },
  options: CatalogOptions = {},
): Promise<TemplateSpec | null> {
  const template = await findTemplate(store, input.organizationId, input.templateId, options);
  const wanted = template.manifest?.openAPISpec;
  if (!wanted || !template.dir) return null;
  const existing = await store.openapi.getBySlug(input.organizationId, wanted.slug);
  if (existing) return { slug: wanted.slug, specId: existing.id, created: false };
  let source: { text: string } | { url: string };
  if (wanted.file) {
    const base = await targetBase(store, input).catch(() => null);
    const replaced = (await contentRefReplacements(store, template, base, input.contentRefs)).get(wanted.file);
    source = { text: replaced ? new TextDecoder().decode(replaced) : await readFile(path.join(template.dir, wanted.file), 'utf8') };
  } else {
    source = { url: wanted.sourceURL! };
  }
  let spec;
  try {
    spec = await store.openapi.create(input.organizationId, { slug: wanted.slug, source });
  } catch (err) {
    // Created meanwhile (a retry, or another application): the existing one is kept.
    const now = err instanceof ConflictError ? await store.openapi.getBySlug(input.organizationId, wanted.slug) : null;
    if (now) return { slug: wanted.slug, specId: now.id, created: false };
    throw err;
  }
  const { run } = await store.openapi.startRun(spec.id);
  return { slug: wanted.slug, specId: spec.id, created: true, run };
}
