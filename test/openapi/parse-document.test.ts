import { describe, expect, it } from 'vitest';
import { SpecParseError, SpecTooComplexError } from '../../src/openapi/errors.js';
import { parseDocumentText } from '../../src/openapi/parse-document.js';

function parseError(fn: () => unknown): SpecParseError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SpecParseError);
    return err as SpecParseError;
  }
  throw new Error('expected a SpecParseError');
}

describe('parseDocumentText', () => {
  it('parses JSON and YAML (1.2 core schema: dates and yes/no stay strings)', () => {
    expect(parseDocumentText('{"a":[1,true,null]}', 'x.json')).toEqual({ a: [1, true, null] });
    expect(parseDocumentText('version: 2024-01-01\nflag: yes\nn: 0x10\nt: True\n', 'x.yaml')).toEqual({ version: '2024-01-01', flag: 'yes', n: 16, t: true });
  });

  it('locates YAML errors by file, line and column', () => {
    const err = parseError(() => parseDocumentText('openapi: 3.0.3\ninfo:\n  title: [unclosed\n  version: 1\n', 'spec.yaml'));
    expect(err.code).toBe('PARSE_ERROR');
    expect(err.problems[0]!.location).toMatch(/^spec\.yaml:\d+:\d+$/);
    const dup = parseError(() => parseDocumentText('a: 1\na: 2\n', 'dup.yaml'));
    expect(dup.problems[0]).toEqual({ location: 'dup.yaml:2:1', message: 'duplicated mapping key' });
  });

  it('requires an object when asked', () => {
    expect(parseError(() => parseDocumentText('- 1\n- 2\n', 'list.yaml', { requireObject: true })).problems[0]!.message).toContain('object');
    expect(parseDocumentText('- 1\n', 'list.yaml')).toEqual([1]);
  });

  it('accepts ordinary aliases but refuses a "billion laughs" document (SPEC_TOO_COMPLEX)', () => {
    expect(parseDocumentText('a: &x { k: 1 }\nb: *x\n', 'ok.yaml')).toEqual({ a: { k: 1 }, b: { k: 1 } });
    const lines = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i <= 9; i++)
      lines.push(
        `l${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const started = Date.now();
    let err: SpecTooComplexError | undefined;
    try {
      parseDocumentText(lines.join('\n'), 'lol.yaml');
    } catch (e) {
      err = e as SpecTooComplexError;
    }
    expect(err).toBeInstanceOf(SpecTooComplexError);
    expect(err!.code).toBe('SPEC_TOO_COMPLEX');
    expect(err!.problems[0]).toEqual({ location: 'lol.yaml', message: expect.stringContaining('aliases expand') });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
