import { fromHtml } from 'hast-util-from-html';
import { describe, expect, it } from 'vitest';
import { loadHighlighter, renderPageBody, type RenderPageInput } from '../../src/publish/render/index.js';
import { highlightCounts, MAX_HIGHLIGHT_CHARS } from '../../src/publish/render/highlight.js';
import { selectAll } from 'hast-util-select';
import { parsePageFile } from '../../src/format/index.js';
import { toString as toText } from 'hast-util-to-string';

const SPEC = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        summary: 'Get a pet',
        parameters: [{ $ref: '#/components/parameters/id' }],
        responses: { '200': { description: 'The pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
  },
  components: {
    parameters: { id: { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Pet id' } },
    schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
  },
});

function render(markdown: string, extra: Partial<RenderPageInput> = {}) {
  return renderPageBody({ markdown, rootPrefix: '../', links: {}, specs: {}, ...extra });
}

describe('rendering GitBook blocks', () => {
  it('hints, tabs, code with title and line numbers, expandables, steppers and columns', () => {
    const md = [
      '# Title',
      '',
      '{% hint style="warning" %}\nCareful **now**\n{% endhint %}',
      '',
      '{% tabs %}\n{% tab title="npm" %}\nnpm i\n{% endtab %}\n\n{% tab title="yarn" %}\nyarn add\n{% endtab %}\n{% endtabs %}',
      '',
      '{% code title="app.js" lineNumbers="true" %}\n```js\nconst a = 1;\nconst b = 2;\n```\n{% endcode %}',
      '',
      '<details>\n\n<summary>More</summary>\n\nHidden *text*\n\n</details>',
      '',
      '{% stepper %}\n{% step %}\nOne\n{% endstep %}\n\n{% step %}\nTwo\n{% endstep %}\n{% endstepper %}',
      '',
      '{% columns %}\n{% column width="50%" %}\nLeft\n{% endcolumn %}\n\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}',
      '',
      '$$\nx^2\n$$',
      '',
    ].join('\n');
    const { html, warnings } = render(md);
    expect(warnings).toEqual([]);
    expect(html).toContain('<aside class="hint hint-warning" aria-label="Warning">');
    expect(html).toContain('<strong>now</strong>');
    expect(html).toMatch(/<input type="radio" name="tabs-1" id="tabs-1-0" class="tab-input" checked>\s*<label for="tabs-1-0" class="tab-label">npm<\/label>/);
    expect(html).toContain('<label for="tabs-1-1" class="tab-label">yarn</label>');
    expect(html).toContain('<figure class="code-block line-numbers"><figcaption>app.js</figcaption>');
    expect(html).toContain('<code class="language-js"><span class="line">const a = 1;</span>\n<span class="line">const b = 2;</span></code>');
    expect(html).toMatch(/<details class="expandable"><summary>More<\/summary>\s*<p>Hidden <em>text<\/em><\/p>\s*<\/details>/);
    expect(html).toMatch(/<ol class="stepper">\s*<li class="step">\s*<p>One<\/p>/);
    expect(html).toContain('<div class="column w-50">');
    expect(html).toMatch(/<div class="math math-display"><span class="katex-display">.*<annotation encoding="application\/x-tex">x\^2<\/annotation>/);
  });

  it('resolves links, images, cards and files through the page links; reports the broken ones', () => {
    const md = [
      '# T',
      '',
      'See [install](install.md#step-2), [out](https://example.com) and [gone](missing.md).',
      '',
      '![diagram](.gitbook/assets/d.png)',
      '',
      '{% content-ref url="install.md" %}\n[install.md](install.md)\n{% endcontent-ref %}',
      '',
      '{% file src=".gitbook/assets/guide.pdf" %}\nThe guide\n{% endfile %}',
      '',
      '<figure><img src=".gitbook/assets/d.png" alt="fig"><figcaption><p>cap</p></figcaption></figure>',
      '',
      '<script>alert(1)</script>',
      '',
    ].join('\n');
    const links = {
      'install.md#step-2': { href: 'install/#step-2', title: 'Install' },
      'install.md': { href: 'install/', title: 'Installing Folio' },
      '.gitbook/assets/d.png': { href: '_files/abc/d.png', name: 'd.png', contentType: 'image/png' },
      '.gitbook/assets/guide.pdf': { href: '_files/def/guide.pdf', name: 'guide.pdf', size: 2048 },
    };
    const { html, warnings } = render(md, { links });
    expect(html).toContain('<a href="../install/#step-2">install</a>');
    expect(html).toContain('<a href="https://example.com" rel="noopener">out</a>');
    expect(html).toContain('<span class="broken-link">gone</span>');
    expect(html).toContain('<img src="../_files/abc/d.png" alt="diagram" loading="lazy">');
    expect(html).toContain('<a class="card" href="../install/"><span class="card-title">Installing Folio</span></a>');
    expect(html).toContain('<a href="../_files/def/guide.pdf" download>guide.pdf</a><span class="file-size">2.0 KB</span>');
    expect(html).toContain('<figure><img src="../_files/abc/d.png" alt="fig" loading="lazy"><figcaption><p>cap</p></figcaption></figure>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('alert(1)</');
    expect(warnings.map((w) => w.code).sort()).toEqual(['PUBLISH_BROKEN_LINK', 'PUBLISH_HTML_REMOVED']);
  });

  it('renders an OpenAPI operation from the processed spec, and says when the spec is missing', () => {
    const md =
      '# API\n\n{% openapi-operation spec="pets" path="/pets/{id}" method="get" %}\n[OpenAPI pets](https://example.com/pets.json)\n{% endopenapi-operation %}\n';
    const { html, warnings } = render(md, { specs: { 'spec:pets': { rootPath: 'openapi.json', filesystem: { 'openapi.json': SPEC } } } });
    expect(warnings).toEqual([]);
    expect(html).toContain('<span class="method method-get">GET</span> <code>/pets/{id}</code>');
    expect(html).toContain('<strong>Get a pet</strong>');
    expect(html).toContain('<td><code>id</code> *</td><td>path</td><td>string</td><td>Pet id</td>');
    expect(html).toContain('<dt><code>200</code></dt><dd>The pet</dd>');
    const missing = render(md);
    expect(missing.warnings.map((w) => w.code)).toEqual(['PUBLISH_SPEC_MISSING']);
  });

  it('keeps inline HTML that spans text together: a GitBook button is one link with its text (never an empty link)', () => {
    // GitbookIO/public-docs, documentation/README.md
    const md =
      '<a href="https://example.com/start" class="button primary">Quickstart</a><a href="https://example.com/mcp" class="button secondary">GitBook MCP & more</a>\n';
    const tree = fromHtml(render(md).html, { fragment: true });
    const links = selectAll('a', tree);
    expect(links.map((a) => [a.properties.href, toText(a)])).toEqual([
      ['https://example.com/start', 'Quickstart'],
      ['https://example.com/mcp', 'GitBook MCP & more'],
    ]);
  });

  it('gives headings ids (explicit anchors first) for the table of contents', () => {
    const { headings, html } = render('# T\n\n## Getting started\n\n## Getting started\n\n### Custom <a href="#mine" id="mine"></a>\n');
    expect(headings.map((h) => h.id)).toEqual(['getting-started', 'getting-started-1', 'mine']);
    expect(html).toContain('<h2 id="getting-started">Getting started<a class="anchor" href="#getting-started" aria-label="Link to Getting started">#</a></h2>');
  });
});

/** Every href and src of rendered HTML, as a browser reads the attribute (entities decoded). */
export function addressesOf(html: string): string[] {
  const out: string[] = [];
  const walk = (node: HastNode) => {
    if (node.type === 'element') {
      for (const key of ['href', 'src', 'action', 'formAction', 'poster', 'data', 'srcSet']) {
        const v = node.properties?.[key];
        if (typeof v === 'string') out.push(v);
        if (Array.isArray(v)) out.push(...v.map(String));
      }
    }
    for (const c of node.children ?? []) walk(c);
  };
  walk(fromHtml(html) as HastNode);
  return out;
}
type HastNode = { type: string; properties?: Record<string, unknown>; children?: HastNode[] };

describe('the URL policy in rendered pages', () => {
  const hostile = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '<java\tscript:alert(1)>',
    '&#106;avascript:alert(1)',
    'javascript&colon;alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'tel:+1234',
  ];

  it('renders links, images, cards, embeds and HTML with refused schemes as their text, with a warning', () => {
    const md = [
      '# T',
      '',
      ...hostile.map((url, i) => `[link ${i}](${url}) ![img ${i}](${url})\n`),
      '<a href="javascript:alert(2)">raw link</a> <a href="java&#x09;script:alert(3)">tabbed</a> <img src="data:image/svg+xml,&lt;svg onload=alert(4)&gt;" alt="raw img">',
      '',
      '<div href="javascript:alert(5)" src="javascript:alert(6)">div</div>',
      '',
      '{% embed url="javascript:alert(7)" %}\ncaption\n{% endembed %}',
      '',
      '{% content-ref url="javascript:alert(8)" %}\n[x](javascript:alert(8))\n{% endcontent-ref %}',
      '',
      '[ok](https://example.com) [mail](mailto:a@example.com) [anchor](#t)',
      '',
    ].join('\n');
    const { html, warnings } = render(md);
    const refused = addressesOf(html).filter((a) => !/^(https:|mailto:|#)/.test(a));
    expect(refused).toEqual([]);
    expect(html).toContain('link 0');
    expect(html).toContain('raw link');
    expect(html).toContain('<a href="https://example.com" rel="noopener">ok</a>');
    expect(html).toContain('<a href="mailto:a@example.com">mail</a>');
    expect(warnings.some((w) => w.code === 'PUBLISH_BROKEN_LINK' && w.message.includes('javascript:'))).toBe(true);
  });
});

describe('syntax highlighting at build time', () => {
  it('gives token spans with classes, one line span per source line, the text unchanged; plain for unknown languages and huge blocks', async () => {
    await loadHighlighter();
    const source = 'const answer = 42; // the answer\nfunction greet(name) {\n  return `Hello ${name}`;\n}';
    const { html } = render(`{% code title="greet.js" lineNumbers="true" %}\n\`\`\`js\n${source}\n\`\`\`\n{% endcode %}\n`);
    const tree = fromHtml(html, { fragment: true });
    const code = selectAll('figure.code-block.line-numbers pre code.language-js', tree)[0]!;
    expect(toText(code)).toBe(source);
    expect(selectAll('span.line', code)).toHaveLength(4);
    expect(selectAll('span.pl-k', code).map((n) => toText(n))).toEqual(expect.arrayContaining(['const', 'function', 'return']));
    expect(selectAll('span.pl-c', code).map((n) => toText(n))).toContain('// the answer');
    expect(selectAll('figcaption', tree).map((n) => toText(n))).toEqual(['greet.js']);
    expect(html).not.toContain('style=');

    const unknown = fromHtml(render('```nosuchlanguage\nconst x = 1;\n```\n').html, { fragment: true });
    expect(selectAll('[class^=pl-]', unknown)).toEqual([]);
    const huge = `${'const x = 1;\n'.repeat(MAX_HIGHLIGHT_CHARS / 13 + 10)}`;
    const plain = fromHtml(render(`\`\`\`js\n${huge}\`\`\`\n`).html, { fragment: true });
    expect(selectAll('span.line', plain).length).toBe(huge.split('\n').length - 1);
    expect(selectAll('[class^=pl-]', plain)).toEqual([]);
  });
});

describe('highlighted blocks kept by the thread', () => {
  it('a block met again (same language and code, another page) is not highlighted again and renders the same', async () => {
    await loadHighlighter();
    const block = '```python\ndef area(r):\n    return 3.14159 * r * r  # circle\n```\n';
    const before = { ...highlightCounts };
    const first = render(`# One\n\n${block}`).html;
    const second = render(`# Two\n\nOther text.\n\n${block}`).html;
    expect(highlightCounts.highlighted - before.highlighted).toBe(1);
    expect(highlightCounts.reused - before.reused).toBe(1);
    const code = (html: string) => /<pre[\s\S]*<\/pre>/.exec(html)![0];
    expect(code(second)).toBe(code(first));
    expect(code(first)).toContain('class="pl-k"');
    // The same code in another language is highlighted as that language.
    render('```js\ndef area(r):\n    return 3.14159 * r * r  # circle\n```\n');
    expect(highlightCounts.highlighted - before.highlighted).toBe(2);
  });
});

describe('math, emoji and reusable content (issue 33)', () => {
  it('typesets $$ math with KaTeX to HTML and MathML, without inline styles; invalid TeX stays as source with a warning', () => {
    const out = render('Inline $$E=mc^2$$ here.\n\n$$\n\\frac{a}{b} + \\sqrt{x^2}\n$$\n\n$$\n\\frac{1}{\n$$\n');
    const tree = fromHtml(out.html, { fragment: true });
    expect(selectAll('.math-inline .katex math annotation', tree).map((n) => toText(n))).toEqual(['E=mc^2']);
    expect(selectAll('.math-display .katex-display .katex-html .mfrac', tree).length).toBe(1);
    expect(selectAll('[style]', tree)).toEqual([]);
    expect(out.math).toBe(true);
    // KaTeX's inline styles became classes of the page's math stylesheet, which carries their declarations.
    const cls = selectAll('.katex-html [class*="m-"]', tree).flatMap((n) => (n.properties.className as string[]).filter((c) => /^m-[0-9a-f]{10}$/.test(c)));
    expect(cls.length).toBeGreaterThan(3);
    for (const c of cls) expect(out.mathCss).toContain(`.${c}{`);
    expect(out.mathCss).toMatch(/height:[\d.]+em!important/);
    expect(toText(selectAll('.math-source', tree)[0]!)).toBe('\\frac{1}{');
    expect(out.warnings.map((w) => w.code)).toEqual(['PUBLISH_MATH_INVALID']);
  });

  it('renders :shortcode: emoji as the character, never inside code; unknown names stay as written', () => {
    const out = render('Ship it :sparkles: :heavy\\_plus\\_sign: :+1: :not_an_emoji_name:\n\n`:sparkles:`\n\n```\n:sparkles:\n```\n');
    const tree = fromHtml(out.html, { fragment: true });
    expect(toText(selectAll('p', tree)[0]!)).toBe('Ship it ✨ ➕ 👍 :not_an_emoji_name:');
    expect(selectAll('code', tree).map((n) => toText(n))).toEqual([':sparkles:', ':sparkles:']);
  });

  it('expands {% include %} with the included file (front matter dropped); a missing include is a typed warning', () => {
    const includes = {
      '../.gitbook/includes/prereq.md': '---\ntitle: Prerequisites\n---\n\n{% hint style="info" %}\nYou need **Node** :rocket:\n{% endhint %}\n',
    };
    const out = render('Before\n\n{% include "../.gitbook/includes/prereq.md" %}\n\n{% include "../.gitbook/includes/gone.md" %}\n\nAfter\n', { includes });
    const tree = fromHtml(out.html, { fragment: true });
    expect(toText(selectAll('.hint', tree)[0]!)).toContain('You need Node 🚀');
    expect(out.html).not.toContain('Prerequisites');
    expect(out.html).not.toContain('include');
    expect(out.warnings).toEqual([{ code: 'PUBLISH_INCLUDE_MISSING', message: 'reusable content not found: ../.gitbook/includes/gone.md' }]);
  });
});

describe('code block options as GitBook writes them (issue 33)', () => {
  it('title, line numbers (not for one line), wrap and expandable from {% code %}; the same from the HTML <pre data-*> form', () => {
    const long = Array.from({ length: 12 }, (_, i) => `x${i}`).join('\n');
    const md = `{% code title="a.js" lineNumbers="true" expandable="true" %}\n\`\`\`js\n${long}\n\`\`\`\n{% endcode %}\n\n{% code lineNumbers="true" overflow="wrap" %}\n\`\`\`\none line\n\`\`\`\n{% endcode %}\n\n<pre class="language-yaml" data-title="x.yaml" data-line-numbers data-overflow="wrap"><code class="lang-yaml"><strong>a: 1\n</strong>b: 2\nc: 3\n</code></pre>\n`;
    const tree = fromHtml(render(md).html, { fragment: true });
    const figures = selectAll('figure.code-block', tree);
    expect(figures.map((f) => f.properties.className)).toEqual([
      ['code-block', 'line-numbers', 'expandable-code'],
      ['code-block', 'wrap'],
      ['code-block', 'line-numbers', 'wrap'],
    ]);
    expect(selectAll('figcaption', tree).map((n) => toText(n))).toEqual(['a.js', 'x.yaml']);
    // Expandable: a checkbox and its label, no script.
    const box = selectAll('input.code-expand', figures[0]!)[0]!;
    expect(selectAll('label.code-expand-label', figures[0]!)[0]!.properties.htmlFor).toEqual([box.properties.id]);
    expect(toText(selectAll('label', figures[0]!)[0]!)).toBe('Show all 12 lines');
    // The HTML form's lines, one span each (the bold line included) for the line numbers.
    expect(selectAll('.line', figures[2]!).map((n) => toText(n))).toEqual(['a: 1', 'b: 2', 'c: 3']);
    expect(selectAll('.line strong', figures[2]!).map((n) => toText(n))).toEqual(['a: 1']);
  });
});

describe('highlighted lines as GitBook writes them (issue 33)', () => {
  it('a whole bold line of the HTML form is a highlighted line: a class, a <mark>, and the bold kept (not colour alone)', () => {
    // As in the corpus (stacks-network docs, FlowiseAI docs): with and without the data-* options.
    const md =
      '<pre class="language-clarity" data-title="a.clar"><code class="lang-clarity">(define-data-var n uint u0)\n<strong>(define-map messages\n</strong>  uint (string-utf8 280))\nplain <strong>bold</strong> word\n</code></pre>\n\n' +
      '<pre class="language-sql"><code class="lang-sql"><strong>SELECT 1\n</strong>FROM t\n</code></pre>\n';
    const tree = fromHtml(render(md).html, { fragment: true });
    const marked = selectAll('.line.highlighted', tree);
    expect(marked.map((n) => toText(n))).toEqual(['(define-map messages', 'SELECT 1']);
    expect(selectAll('.line.highlighted > mark > strong', tree)).toHaveLength(2);
    // A bold word inside a line is bold only; every line is still there, once.
    expect(selectAll('pre', tree)[0]!.children.length).toBe(1);
    expect(selectAll('.line', tree).map((n) => toText(n))).toEqual([
      '(define-data-var n uint u0)',
      '(define-map messages',
      '  uint (string-utf8 280))',
      'plain bold word',
      'SELECT 1',
      'FROM t',
    ]);
  });
});

describe('the parse of a render', () => {
  it('skips detecting and recording the writing style (style: false): the same nodes and values, fewer phases', () => {
    const md = [
      '---',
      'description: Style',
      '---',
      '',
      '# Title',
      '',
      '* one\\_two  ',
      '* three',
      '',
      '| a |  b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '> quote',
      '',
      '~~~js',
      'x',
      '~~~',
      '',
      '{% hint style="info" %}',
      'Hint with *emphasis* and __strong__.',
      '{% endhint %}',
      '',
    ].join('\n');
    const phases: string[] = [];
    const lean = parsePageFile(md, { style: false, onPhase: (p) => phases.push(p) });
    const full = parsePageFile(md);
    expect(phases).toEqual(['prepare', 'micromark', 'liquid', 'assemble']);
    // Node types, values and attributes: everything but what the style recording adds to `data`.
    const bare = (tree: unknown) => JSON.parse(JSON.stringify(tree, (k, v: unknown) => (k === 'data' || k === 'position' ? undefined : v))) as unknown;
    expect(bare(lean.document)).toEqual(bare(full.document));
    expect(lean.title).toEqual(full.title);
    expect(lean.frontMatter?.fields).toEqual(full.frontMatter?.fields);
    expect(render(md).html).toContain('<li>one_two</li>');
  });
});
