/**
 * Front matter whose YAML aliases expand to billions of values ("billion laughs") parses in milliseconds but
 * would be expanded by whatever reads it as JSON (fingerprints, the store): it is invalid front matter, kept
 * verbatim, and the page's fields stay small.
 */
import { describe, expect, it } from 'vitest';
import { decodePage, encodePage } from '../../../src/format/page-codec.js';

function laughs(levels: number): string {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(10)
        .fill(i === 1 ? '*a' : `*l${i - 1}`)
        .join(',')}]`,
    );
  return `---\n${lines.join('\n')}\n---\n\n# Laughs\n\nBody.\n`;
}

describe('front matter YAML aliases', () => {
  it('front matter expanding to 10^8 values is invalid, kept verbatim; the page keeps its title and bytes', () => {
    const text = laughs(8);
    const decoded = decodePage(text);
    expect(decoded.fields.frontMatterValid).toBe(false);
    expect(decoded.warnings.map((w) => w.code)).toContain('MARKDOWN_FRONT_MATTER_INVALID');
    expect(JSON.stringify(decoded.fields.frontMatter ?? {}).length).toBeLessThan(1000);
    expect(decoded.fields.title).toBe('Laughs');
    expect(encodePage(text, null, () => undefined)).toBe(text);
  });

  it('aliases that stay small are still expanded as usual', () => {
    const decoded = decodePage('---\nbase: &b { icon: book }\nlayout: *b\n---\n\n# Small\n');
    expect(decoded.fields.frontMatterValid).toBe(true);
    expect(decoded.fields.frontMatter).toEqual({ base: { icon: 'book' }, layout: { icon: 'book' } });
  });
});
