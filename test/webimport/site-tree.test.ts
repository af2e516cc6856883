import { describe, expect, it } from 'vitest';
import { ImportScope, pageKey } from '../../src/webimport/scope.js';
import { fileForUrl, planSite, relativePath, summaryOf } from '../../src/webimport/site-tree.js';

const B = 'https://docs.example.com/product/';
const scope = new ImportScope(`${B}index.html`);
const nav = [
  { title: 'Home', url: B, children: [] },
  {
    title: 'Getting started',
    url: null,
    children: [
      { title: 'Zebra setup', url: `${B}zebra.html`, children: [{ title: 'Deep', url: `${B}zebra/deep/`, children: [] }] },
      { title: 'Alpha', url: `${B}alpha/index.html`, children: [] },
    ],
  },
  { title: 'Reference', url: `${B}ref/`, children: [] },
];

describe('site tree', () => {
  it('keys pages without fragments and folds index.html into its folder', () => {
    expect(pageKey('https://x.dev/a/index.html#top')).toBe('https://x.dev/a/');
    expect(scope.start).toBe(B);
    expect(scope.contains('https://docs.example.com/product/x')).toBe(true);
    expect(scope.contains('https://docs.example.com/other/x')).toBe(false);
  });

  it('files come from the URL path', () => {
    expect(fileForUrl(scope, B)).toBe('README.md');
    expect(fileForUrl(scope, `${B}guide/install/`)).toBe('guide/install/README.md');
    expect(fileForUrl(scope, `${B}guide/setup.html`)).toBe('guide/setup.md');
    expect(fileForUrl(scope, `${B}Guide%20Two/x y.html`)).toBe('Guide-Two/x-y.md');
    expect(relativePath('guide/install/README.md', 'alpha.md')).toBe('../../alpha.md');
    expect(relativePath('README.md', '.gitbook/assets/a.png')).toBe('.gitbook/assets/a.png');
  });

  it('follows the navigation order (not the alphabet), groups its headings, appends unlisted pages in discovery order', () => {
    const pages = [
      { key: B, title: 'Home page', nav },
      { key: `${B}ref/`, title: 'Reference', nav: [] },
      { key: `${B}alpha/`, title: 'Alpha', nav: [] },
      { key: `${B}orphan.html`, title: 'Orphan', nav: [] },
      { key: `${B}zebra/deep/`, title: 'Deep', nav: [] },
      { key: `${B}zebra.html`, title: 'Zebra', nav: [] },
      { key: `${B}ref/unlisted.html`, title: 'Unlisted', nav: [] },
    ];
    const plan = planSite(scope, pages);
    expect(summaryOf(plan)).toBe(
      [
        '# Table of contents',
        '',
        '* [Home page](README.md)',
        '',
        '## Getting started',
        '',
        '* [Zebra setup](zebra/README.md)',
        '  * [Deep](zebra/deep/README.md)',
        '* [Alpha](alpha/README.md)',
        '* [Reference](ref/README.md)',
        '  * [Unlisted](ref/unlisted.md)',
        '* [Orphan](orphan.md)',
        '',
      ].join('\n'),
    );
  });
});
