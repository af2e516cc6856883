import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOURCE_BODY_LIMIT_BYTES, SOURCE_TEXT_MAX_BYTES, SPEC_SLUG_MAX, SPEC_SLUG_PATTERN, checkSlug, checkSource } from '../../src/store/openapi-input.js';
import { projectRoot } from '../../src/project-root.js';

/** The platform API's own definition of a spec slug (GitBook's clients send what it allows). */
const officialSlug = (
  JSON.parse(readFileSync(path.join(projectRoot(), 'node_modules/@gitbook/api/spec/openapi.json'), 'utf8')) as {
    components: { schemas: { OpenAPISpecSlug: { pattern: string; minLength: number; maxLength: number } } };
  }
).components.schemas.OpenAPISpecSlug;

describe('OpenAPI spec input', () => {
  it('checks slugs with the pattern and length of the official OpenAPISpecSlug', () => {
    expect(SPEC_SLUG_PATTERN.source).toBe(officialSlug.pattern);
    expect(SPEC_SLUG_MAX).toBe(officialSlug.maxLength);
    expect(officialSlug.minLength).toBe(1);
    for (const ok of ['petstore', 'PetStore', 'Pet-Store-V2', 'API2', 'x', 'a'.repeat(officialSlug.maxLength)]) expect(checkSlug(ok), ok).toBe(ok);
    for (const bad of ['', '-a', 'a-', 'a--b', 'a_b', 'a b', 'a.b', 'é', 'a'.repeat(officialSlug.maxLength + 1), 42, null]) {
      expect(() => checkSlug(bad), String(bad)).toThrow(/slug must be/);
    }
  });

  it('takes a text source up to the cap, and the body limit leaves room for its JSON escaping', () => {
    const atCap = 'a'.repeat(SOURCE_TEXT_MAX_BYTES);
    expect(checkSource({ text: atCap })).toEqual({ text: atCap });
    expect(() => checkSource({ text: `${atCap}a` })).toThrow(/at most/);
    // The worst ordinary escaping: every character a newline or quote (two bytes each in JSON).
    expect(Buffer.byteLength(JSON.stringify({ source: { text: '\n'.repeat(SOURCE_TEXT_MAX_BYTES) } }))).toBeLessThanOrEqual(SOURCE_BODY_LIMIT_BYTES);
  });
});
