import { describe, it, expect } from 'vitest';
import { parsePageFile, serializePageFile, MarkdownCodes, FrontMatter } from '../../../src/format/markdown/index.js';

describe('bad input gives typed warnings, never a crash', () => {
  it('binary content', () => {
    const text = 'PK\u0003\u0004\u0000\u0000binary\uFFFD\n';
    const page = parsePageFile(text);
    expect(page.warnings.map((w) => w.code)).toContain(MarkdownCodes.BINARY_CONTENT);
    expect(serializePageFile(page)).toBe(text);
  });

  it('a 10 MB page is kept raw with a PAGE_TOO_LARGE warning and round-trips', () => {
    const para = 'Some text with `code`, **bold** and a [link](a.md).\n\n';
    const text = '# Big\n\n' + para.repeat(Math.ceil((10 * 1024 * 1024) / para.length));
    const page = parsePageFile(text);
    expect(page.warnings.map((w) => w.code)).toEqual([MarkdownCodes.PAGE_TOO_LARGE]);
    expect(serializePageFile(page)).toBe(text);
  });

  it('a page above maxLength is kept raw with a warning', () => {
    const text = '# X\n\n' + 'a'.repeat(2000) + '\n';
    const page = parsePageFile(text, { maxLength: 1000 });
    expect(page.warnings[0]!.code).toBe(MarkdownCodes.PAGE_TOO_LARGE);
    expect(serializePageFile(page)).toBe(text);
  });

  it('unterminated {% hint %} and a stray end tag', () => {
    const text = '{% hint style="info" %}\nNever closed.\n\n{% endtabs %}\n';
    const page = parsePageFile(text);
    const codes = page.warnings.map((w) => w.code);
    expect(codes).toContain(MarkdownCodes.LIQUID_UNTERMINATED);
    expect(codes).toContain(MarkdownCodes.LIQUID_UNMATCHED_END);
    expect(page.warnings.find((w) => w.code === MarkdownCodes.LIQUID_UNTERMINATED)!.line).toBe(1);
    expect(serializePageFile(page)).toBe(text);
  });

  it('invalid front matter keeps its raw text', () => {
    const text = '---\ndescription: [unclosed\n  : bad\n---\n\n# T\n';
    const page = parsePageFile(text);
    expect(page.warnings[0]!.code).toBe(MarkdownCodes.FRONT_MATTER_INVALID);
    expect(page.frontMatter!.valid).toBe(false);
    expect(page.frontMatter!.description).toBeUndefined();
    expect(serializePageFile(page)).toBe(text);
  });
});

describe('FrontMatter', () => {
  const raw = "icon: book\ndescription: >-\n  Folded text that goes on.\nlayout:\n  width: wide\n  title:\n    visible: false\nversion: '1.0'\nhidden: true\n";
  it('keeps key order and scalar styles; typed accessors', () => {
    const fm = FrontMatter.parse(raw);
    expect(fm.toString()).toBe(raw);
    expect(fm.keys()).toEqual(['icon', 'description', 'layout', 'version', 'hidden']);
    expect(fm.description).toBe('Folded text that goes on.');
    expect(fm.hidden).toBe(true);
    expect(fm.layout).toEqual({ width: 'wide', title: { visible: false } });
    expect(fm.get('version')).toBe('1.0');
  });
  it('set/delete write js-yaml dump style', () => {
    const fm = FrontMatter.parse(raw);
    fm.set('description', 'x'.repeat(30) + ' ' + 'y'.repeat(60));
    fm.set('noIndex', true).delete('icon');
    expect(fm.toString()).toBe(
      `description: >-\n  ${'x'.repeat(30)}\n  ${'y'.repeat(60)}\nlayout:\n  width: wide\n  title:\n    visible: false\nversion: '1.0'\nhidden: true\nnoIndex: true\n`,
    );
  });
});
