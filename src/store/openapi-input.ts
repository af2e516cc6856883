/** The checks of an OpenAPI specification's stored fields (slug, visibility, source): the API and the store apply them. */
import { ValidationError } from '../errors.js';
import type { SpecSourceInput, SpecVisibility } from './types/index.js';

/** Slug of a specification, as the platform API's `OpenAPISpecSlug`: letters and digits in words joined by single dashes, 1..100 characters. */
export const SPEC_SLUG_PATTERN = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;
export const SPEC_SLUG_MAX = 100;
export const SOURCE_URL_MAX = 2048;
/** A text source is held to the same cap as a fetched document. */
export const SOURCE_TEXT_MAX_BYTES = 20 * 1024 * 1024;
/**
 * Body limit of the requests that carry a source: the text cap plus JSON overhead. Escaping at most doubles
 * the characters it touches (newlines, quotes, backslashes), so any text within the cap fits, and a larger
 * body is refused (413) before it is parsed.
 */
export const SOURCE_BODY_LIMIT_BYTES = 2 * SOURCE_TEXT_MAX_BYTES + 64 * 1024;

export const SPEC_VISIBILITIES: readonly SpecVisibility[] = ['private', 'public'];

export function checkSlug(slug: unknown): string {
  if (typeof slug !== 'string' || slug.length < 1 || slug.length > SPEC_SLUG_MAX || !SPEC_SLUG_PATTERN.test(slug)) {
    throw new ValidationError(`slug must be 1-${SPEC_SLUG_MAX} characters matching ${SPEC_SLUG_PATTERN.source}`, { field: 'slug' });
  }
  return slug;
}

export function checkVisibility(visibility: unknown): SpecVisibility {
  if (typeof visibility !== 'string' || !(SPEC_VISIBILITIES as readonly string[]).includes(visibility)) {
    throw new ValidationError(`visibility must be one of ${SPEC_VISIBILITIES.join(', ')}`, { field: 'visibility' });
  }
  return visibility as SpecVisibility;
}

/** Exactly one of `url` (absolute http/https, at most 2048 characters) or `text` (non-empty, at most 20 MiB). */
export function checkSource(source: unknown): SpecSourceInput {
  if (!source || typeof source !== 'object' || Array.isArray(source)) throw new ValidationError('source must be { url } or { text }', { field: 'source' });
  const s = source as Record<string, unknown>;
  const hasUrl = s.url !== undefined;
  const hasText = s.text !== undefined;
  if (hasUrl === hasText) throw new ValidationError('source must have exactly one of url or text', { field: 'source' });
  if (hasUrl) {
    const url = s.url;
    if (typeof url !== 'string' || url.length > SOURCE_URL_MAX)
      throw new ValidationError(`source.url must be a URL of at most ${SOURCE_URL_MAX} characters`, { field: 'source.url' });
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ValidationError('source.url must be an absolute URL', { field: 'source.url' });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new ValidationError('source.url must be an http or https URL', { field: 'source.url' });
    return { url };
  }
  const text = s.text;
  if (typeof text !== 'string' || text.length === 0) throw new ValidationError('source.text must be a non-empty string', { field: 'source.text' });
  if (Buffer.byteLength(text) > SOURCE_TEXT_MAX_BYTES)
    throw new ValidationError(`source.text must be at most ${SOURCE_TEXT_MAX_BYTES} bytes`, { field: 'source.text' });
  return { text };
}
