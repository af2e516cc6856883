/**
 * The templates an organization can apply: Folio's built-in catalog (`templates/` of the project), an operator's
 * folder of templates (`TEMPLATES_DIR`, same layout; a folder there replaces a built-in of the same id) and the
 * organization's own spaces marked as templates (id `space:<spaceId>`). Another organization's template spaces are
 * never listed nor found.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../project-root.js';
import type { SpaceTemplateRecord, Store } from '../store/index.js';
import { TemplateNotFoundError } from './errors.js';
import { readManifest, type TemplateManifest } from './manifest.js';

export type TemplateOrigin = 'builtin' | 'directory' | 'organization';

export interface TemplateEntry {
  id: string;
  origin: TemplateOrigin;
  title: string;
  subtitle: string;
  emoji: string;
  features: string[];
  /** A folder in GitBook's format (built-in and operator templates). */
  dir?: string;
  manifest?: TemplateManifest;
  /** The template space (organization templates): its current revision is the content. */
  space?: { id: string; revisionId: string | null };
}

export interface CatalogOptions {
  /** An operator's folder of templates (`TEMPLATES_DIR`). */
  templatesDir?: string;
  /** The built-in catalog (default: `templates/` of the project). */
  builtinDir?: string;
}

const FOLDER_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SPACE_TEMPLATE_PREFIX = 'space:';

async function folderTemplates(root: string, origin: TemplateOrigin): Promise<TemplateEntry[]> {
  let names: string[];
  try {
    names = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory() && FOLDER_ID.test(d.name)).map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && origin === 'directory') return [];
    throw err;
  }
  const out: TemplateEntry[] = [];
  for (const name of names.sort()) {
    const dir = path.join(root, name);
    const manifest = await readManifest(dir);
    out.push({ id: name, origin, title: manifest.title, subtitle: manifest.subtitle, emoji: manifest.emoji, features: manifest.features, dir, manifest });
  }
  return out;
}

function spaceEntry(record: SpaceTemplateRecord, space: { title: string | null; emoji: string | null; revisionId: string | null }): TemplateEntry {
  return {
    id: `${SPACE_TEMPLATE_PREFIX}${record.spaceId}`,
    origin: 'organization',
    title: space.title || 'Untitled template',
    subtitle: record.subtitle ?? '',
    emoji: space.emoji || '📄',
    features: record.features,
    space: { id: record.spaceId, revisionId: space.revisionId },
  };
}

/** Built-in and operator templates (operator folders replace built-ins of the same id), then the organization's. */
export async function listTemplates(store: Store, organizationId: string, options: CatalogOptions = {}): Promise<TemplateEntry[]> {
  const builtin = await folderTemplates(options.builtinDir ?? path.join(projectRoot(), 'templates'), 'builtin');
  const operator = options.templatesDir ? await folderTemplates(options.templatesDir, 'directory') : [];
  const byId = new Map<string, TemplateEntry>();
  for (const t of [...builtin, ...operator]) byId.set(t.id, t);
  const out = [...byId.values()];
  for (const record of await store.spaceTemplates.list(organizationId)) {
    const space = await store.spaces.get(record.spaceId);
    if (space && space.organizationId === organizationId && !space.deletedAt) out.push(spaceEntry(record, space));
  }
  return out;
}

export async function findTemplate(store: Store, organizationId: string, id: string, options: CatalogOptions = {}): Promise<TemplateEntry> {
  if (typeof id !== 'string' || id === '') throw new TemplateNotFoundError(String(id));
  if (id.startsWith(SPACE_TEMPLATE_PREFIX)) {
    const spaceId = id.slice(SPACE_TEMPLATE_PREFIX.length);
    const record = await store.spaceTemplates.get(organizationId, spaceId);
    const space = record ? await store.spaces.get(spaceId) : null;
    if (!record || !space || space.organizationId !== organizationId || space.deletedAt) throw new TemplateNotFoundError(id);
    return spaceEntry(record, space);
  }
  if (!FOLDER_ID.test(id)) throw new TemplateNotFoundError(id);
  const found = (await listTemplates(store, organizationId, options)).find((t) => t.id === id && t.origin !== 'organization');
  if (!found) throw new TemplateNotFoundError(id);
  return found;
}
