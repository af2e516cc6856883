import { common } from '@wooorm/starry-night';
import { describe, expect, it, vi } from 'vitest';
import { COMMON_GRAMMARS } from '../../src/publish/render/grammar-index.js';
import { scopeOfFlag } from '../../src/publish/render/highlight.js';
import type { RenderPageInput } from '../../src/publish/render/index.js';

/**
 * Module state matters here (the grammars this "thread" loaded), and a test process runs file after file with its
 * modules kept (test/vitest.config.ts): another file may have loaded every grammar already. The renderer is imported
 * anew, as a render thread starts it.
 */
async function freshRenderer() {
  vi.resetModules();
  const highlight = await import('../../src/publish/render/highlight.js');
  const render = await import('../../src/publish/render/index.js');
  return { ...highlight, ...render };
}
const input = (markdown: string): RenderPageInput => ({ markdown, rootPrefix: '', links: {}, specs: {} });
const SQL_PAGE = '# Queries\n\n```sql\nSELECT name FROM pets WHERE id = 1; -- one\n```\n\n```text\nplain\n```\n';
// A tilde fence's info may hold a backtick: the fence scan before the render sees `a`, the renderer `a`b.js` (→ .js).
const UNFORESEEN_PAGE = '# Unforeseen\n\n~~~a`b.js\nconst x = 1; // one\n~~~\n';
const JS_PAGE = '# Script\n\n```js\nconst el = `<b>${1}</b>`;\n```\n';

/** Scopes a grammar includes (`include: 'source.css#rule'`), as vscode-textmate loads them with it. */
function includedScopes(grammar: unknown, own: string): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'include' && typeof x === 'string' && !x.startsWith('#') && !x.startsWith('$')) out.add(x.split('#')[0]!);
        walk(x);
      }
  };
  walk(grammar);
  out.delete(own);
  return [...out];
}

describe('grammars loaded as pages name their languages', () => {
  it('the grammar table is starry-night common (order, names, extensions, included grammars)', () => {
    const scopes = new Set(common.map((g) => g.scopeName));
    expect(COMMON_GRAMMARS.map((g) => g.scope)).toEqual(common.map((g) => g.scopeName));
    for (const [i, g] of common.entries()) {
      const entry = COMMON_GRAMMARS[i]!;
      expect(entry.names).toEqual(g.names);
      expect(entry.extensions).toEqual(g.extensions);
      expect(entry.extensionsWithDot ?? []).toEqual(g.extensionsWithDot ?? []);
      expect([...entry.includes].sort()).toEqual(
        includedScopes(g, g.scopeName)
          .filter((s) => scopes.has(s))
          .sort(),
      );
    }
  });

  it('a page loads the grammars of its languages only, and renders as with every grammar loaded', async () => {
    const { loadEngine, loadedGrammarScopes, renderPageWithGrammars, loadHighlighter, renderPageBody } = await freshRenderer();
    expect(loadedGrammarScopes()).toEqual([]);
    await loadEngine();
    const lazySql = await renderPageWithGrammars(input(SQL_PAGE));
    expect(loadedGrammarScopes()).toEqual(['source.sql']);
    expect(lazySql.html).toContain('class="pl-k"');
    // A language the scan before the render did not see: the page is rendered again once its grammar is loaded.
    const lazyUnforeseen = await renderPageWithGrammars(input(UNFORESEEN_PAGE));
    expect(scopeOfFlag('a`b.js')).toBe('source.js');
    expect(loadedGrammarScopes()).toContain('source.js');
    expect(lazyUnforeseen.html).toContain('class="pl-k"');
    // A grammar comes with those it includes (JavaScript embeds HTML, CSS, GraphQL, SQL, …): its output is the full set's.
    const lazyJs = await renderPageWithGrammars(input(JS_PAGE));
    expect(loadedGrammarScopes()).toEqual(['source.css', 'source.graphql', 'source.js', 'source.python', 'source.sql', 'source.ts', 'text.html.basic']);

    await loadHighlighter();
    expect(loadedGrammarScopes()).toHaveLength(common.length);
    expect(lazySql.html).toBe(renderPageBody(input(SQL_PAGE)).html);
    expect(lazyUnforeseen.html).toBe(renderPageBody(input(UNFORESEEN_PAGE)).html);
    expect(lazyJs.html).toBe(renderPageBody(input(JS_PAGE)).html);
  });

  it('a fence flag maps to the scope starry-night gives it with every grammar registered', async () => {
    const { createStarryNight } = await import('@wooorm/starry-night');
    const full = await createStarryNight(common);
    for (const flag of [
      'js',
      'JS',
      'javascript',
      '.py',
      'py',
      'bash',
      'sh',
      'shell',
      'console',
      'c++',
      'h',
      'file.tsx',
      'html',
      'md',
      'yml',
      'x.y.z',
      'nosuch',
      ' sql/ ',
    ])
      expect(scopeOfFlag(flag), flag).toBe(full.flagToScope(flag));
  });
});
