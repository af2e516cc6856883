import { describe, expect, it } from 'vitest';
import { FormatWarningCodes } from '../../../src/format/errors.js';
import { MAX_CONFIG_VALUES, MAX_PARSED_CONFIG_CHARS, parseGitbookYaml } from '../../../src/format/gitbook-yaml.js';

/** A `.gitbook.yaml` whose redirects are a "billion laughs": 10^9 values once its aliases are expanded. */
function aliasBomb(): string {
  const lines = ['root: ./docs/', 'x-l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= 9; i++)
    lines.push(
      `x-l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  lines.push('redirects: { a: *l9 }');
  return `${lines.join('\n')}\n`;
}

describe('.gitbook.yaml budgets', () => {
  it('an alias bomb gives FORMAT_CONFIG_TOO_COMPLEX and the defaults, quickly', () => {
    const parsed = parseGitbookYaml(aliasBomb(), 'docs/.gitbook.yaml');
    expect(parsed.root).toBeUndefined();
    expect(parsed.redirects).toEqual([]);
    expect(parsed.warnings).toEqual([
      expect.objectContaining({
        code: FormatWarningCodes.CONFIG_TOO_COMPLEX,
        severity: 'error',
        path: 'docs/.gitbook.yaml',
        message: expect.stringContaining(`more than ${MAX_CONFIG_VALUES} values`),
      }),
    ]);
  });

  it('a file longer than the budget is not parsed: FORMAT_CONFIG_TOO_COMPLEX and the defaults', () => {
    const text = `root: ./docs/\n# ${'x'.repeat(MAX_PARSED_CONFIG_CHARS)}\n`;
    const parsed = parseGitbookYaml(text, '.gitbook.yaml');
    expect(parsed.root).toBeUndefined();
    expect(parsed.warnings.map((w) => w.code)).toEqual([FormatWarningCodes.CONFIG_TOO_COMPLEX]);
  });

  it('ordinary aliases and many redirects stay within the budget', () => {
    const redirects = Array.from({ length: 2000 }, (_, i) => `  old/${i}: new/${i}.md`).join('\n');
    const parsed = parseGitbookYaml(
      `root: &r ./docs/\nstructure: { readme: README.md, summary: SUMMARY.md }\nx-again: *r\nredirects:\n${redirects}\n`,
      '.gitbook.yaml',
    );
    expect(parsed.root).toBe('./docs/');
    expect(parsed.redirects).toHaveLength(2000);
    expect(parsed.warnings.map((w) => w.code)).toEqual([FormatWarningCodes.CONFIG_UNKNOWN_KEY]);
  });
});
