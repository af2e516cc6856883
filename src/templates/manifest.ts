/**
 * `template.yaml`: how a template folder presents itself (title, subtitle, emoji, features), which of its files a
 * client may replace through `params.contentRefs` (`placeholders`: name → path in the folder), and the OpenAPI spec
 * the template creates in the organization (`openAPISpec`: a `slug`, and the spec as a `file` of the folder or a
 * `sourceURL` fetched through the guarded fetch).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import { TemplateInvalidError } from './errors.js';

export interface TemplateManifest {
  title: string;
  subtitle: string;
  emoji: string;
  features: string[];
  placeholders: Record<string, string>;
  openAPISpec?: { slug: string; file?: string; sourceURL?: string };
}

const SLUG = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;
export const MANIFEST_FILE = 'template.yaml';

function str(value: unknown, field: string, dir: string, max = 300): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) throw new TemplateInvalidError(dir, `${field} must be a non-empty string`);
  return value;
}

export function parseManifest(text: string, dir: string): TemplateManifest {
  let raw: unknown;
  try {
    raw = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch (err) {
    throw new TemplateInvalidError(dir, `${MANIFEST_FILE} is not valid YAML: ${(err as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new TemplateInvalidError(dir, `${MANIFEST_FILE} must be a mapping`);
  const m = raw as Record<string, unknown>;
  const features = m.features === undefined ? [] : m.features;
  if (!Array.isArray(features) || features.some((f) => typeof f !== 'string')) throw new TemplateInvalidError(dir, 'features must be a list of strings');
  const placeholders: Record<string, string> = {};
  if (m.placeholders !== undefined) {
    if (!m.placeholders || typeof m.placeholders !== 'object' || Array.isArray(m.placeholders))
      throw new TemplateInvalidError(dir, 'placeholders must map names to file paths');
    for (const [name, file] of Object.entries(m.placeholders as Record<string, unknown>))
      placeholders[name] = safePath(str(file, `placeholders.${name}`, dir), dir);
  }
  const manifest: TemplateManifest = {
    title: str(m.title, 'title', dir, 200),
    subtitle: str(m.subtitle, 'subtitle', dir),
    emoji: str(m.emoji, 'emoji', dir, 50),
    features: features as string[],
    placeholders,
  };
  if (m.openAPISpec !== undefined) {
    const spec = m.openAPISpec as Record<string, unknown> | null;
    if (!spec || typeof spec !== 'object') throw new TemplateInvalidError(dir, 'openAPISpec must be a mapping');
    const slug = str(spec.slug, 'openAPISpec.slug', dir, 100);
    if (!SLUG.test(slug)) throw new TemplateInvalidError(dir, 'openAPISpec.slug must be a slug (letters, digits and dashes)');
    if ((spec.file === undefined) === (spec.sourceURL === undefined))
      throw new TemplateInvalidError(dir, 'openAPISpec needs exactly one of file and sourceURL');
    manifest.openAPISpec = { slug };
    if (spec.file !== undefined) manifest.openAPISpec.file = safePath(str(spec.file, 'openAPISpec.file', dir), dir);
    if (spec.sourceURL !== undefined) {
      const url = str(spec.sourceURL, 'openAPISpec.sourceURL', dir, 2000);
      if (!/^https?:\/\//.test(url)) throw new TemplateInvalidError(dir, 'openAPISpec.sourceURL must be an http(s) URL');
      manifest.openAPISpec.sourceURL = url;
    }
  }
  return manifest;
}

/** A path inside the template folder (relative, no `..`). */
function safePath(p: string, dir: string): string {
  const normal = path.posix.normalize(p);
  if (normal.startsWith('../') || normal === '..' || path.posix.isAbsolute(normal)) throw new TemplateInvalidError(dir, `${p} is outside the template folder`);
  return normal;
}

export async function readManifest(dir: string): Promise<TemplateManifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new TemplateInvalidError(dir, `no ${MANIFEST_FILE}`);
  }
  return parseManifest(text, dir);
}
