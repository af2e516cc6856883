/**
 * The hostile repository of issue 25 (item 1): eight pages of pathological markdown (each alone parses for seconds to
 * minutes, or overflows the parser's stack) beside a README, as one GitBook tree; and a normal repository of
 * generated pages for the organization next door.
 */

/** The eight pathological pages, by path. */
export const HOSTILE_PAGES: Readonly<Record<string, string>> = {
  'brackets.md': `# Brackets\n\n${'['.repeat(100_000)}\n`,
  'star-a.md': `# Star\n\n${'*a_'.repeat(50_000)}\n`,
  'links.md': `# Links\n\n${'[a]('.repeat(30_000)}\n`,
  'table.md': `# Table\n\n| ${Array.from({ length: 5000 }, (_, i) => `c${i}`).join(' | ')} |\n|${' --- |'.repeat(5000)}\n| ${Array.from({ length: 5000 }, (_, i) => `${i}`).join(' | ')} |\n`,
  'strong.md': `# Strong\n\n${'**_'.repeat(30_000)}\n`,
  'nested.md': `# Nested\n\n${'- '.repeat(10_000)}deep\n`,
  'quotes.md': `# Quotes\n\n${'>'.repeat(10_000)} deep\n`,
  'list-quotes.md': `# List quotes\n\n${'- > '.repeat(5_000)}deep\n`,
};

/** The hostile repository's files: a README and the eight pages, in a SUMMARY (nine pages). */
export function hostileRepository(): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# Hostile\n\nNine pages, eight of them hostile.\n', ...HOSTILE_PAGES };
  files['SUMMARY.md'] = ['# Table of contents', '', '* [Hostile](README.md)', ...Object.keys(HOSTILE_PAGES).map((p) => `* [${p}](${p})`), ''].join('\n');
  return files;
}

/** A normal repository of `n` pages (README included) with the constructs real pages have. */
export function normalRepository(n = 40): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# Guide\n\nA normal documentation space.\n' };
  const summary = ['# Table of contents', '', '* [Guide](README.md)'];
  for (let i = 1; i < n; i++) {
    const file = `pages/page-${String(i).padStart(3, '0')}.md`;
    summary.push(`* [Page ${i}](${file})`);
    files[file] = [
      '---',
      `description: Page ${i} of the guide`,
      '---',
      '',
      `# Page ${i}`,
      '',
      `Page **${i}** links to [the guide](../README.md)${i > 1 ? ` and to [page ${i - 1}](page-${String(i - 1).padStart(3, '0')}.md)` : ''}.`,
      '',
      '| option | default |',
      '| --- | --- |',
      ...Array.from({ length: 4 }, (_, k) => `| opt${k} | ${i * k} |`),
      '',
      '{% hint style="info" %}',
      `A hint on page ${i}.`,
      '{% endhint %}',
      '',
      '```js',
      `console.log(${i});`,
      '```',
      '',
    ].join('\n');
  }
  files['SUMMARY.md'] = summary.join('\n') + '\n';
  return files;
}
