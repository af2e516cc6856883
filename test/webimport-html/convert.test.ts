import { describe, expect, it } from 'vitest';
import { parsePageFile } from '../../src/format/index.js';
import { analyzeHtmlPage, convertHtmlPage } from '../../src/webimport/html-page.js';

/** Content of a plain page (the heuristic's `main`), converted with no link or asset targets unless given. */
function convert(content: string, targets: { linkTargets?: Record<string, string>; assetTargets?: Record<string, string> } = {}): string {
  const html = `<html><head><title>T</title></head><body><main>${content}</main></body></html>`;
  return convertHtmlPage(html, {
    pageUrl: 'https://docs.test/guide/page.html',
    linkTargets: targets.linkTargets ?? {},
    assetTargets: targets.assetTargets ?? {},
  }).markdown;
}

describe('conversion of GitBook constructs', () => {
  it('admonitions of every generator become hints; a title other than the kind stays in bold', () => {
    // MkDocs / Python-Markdown admonition with its own title
    expect(convert('<div class="admonition warning"><p class="admonition-title">Mind the gap</p><p>Step <strong>carefully</strong>.</p></div>')).toBe(
      '{% hint style="warning" %}\n**Mind the gap**\n\nStep **carefully**.\n{% endhint %}\n',
    );
    // Sphinx / docutils note with the default title
    expect(convert('<div class="admonition note"><p class="admonition-title">Note</p><p>Read this.</p></div>')).toBe(
      '{% hint style="info" %}\nRead this.\n{% endhint %}\n',
    );
    // Sphinx (older docutils): the kind as the only class
    expect(convert('<div class="seealso"><p class="admonition-title">See also</p><p>Other page.</p></div>')).toBe(
      '{% hint style="info" %}\nOther page.\n{% endhint %}\n',
    );
    // Docusaurus 3
    expect(
      convert(
        '<div class="theme-admonition theme-admonition-danger admonition_xJq3 alert alert--danger"><div class="admonitionHeading_Gvgb"><span class="admonitionIcon_Rf37"><svg></svg></span>danger</div><div class="admonitionContent_BuS1"><p>Data loss.</p></div></div>',
      ),
    ).toBe('{% hint style="danger" %}\nData loss.\n{% endhint %}\n');
    // Material collapsible (pymdownx.details)
    expect(convert('<details class="tip"><summary>Tip</summary><p>Use the cache.</p></details>')).toBe(
      '{% hint style="success" %}\nUse the cache.\n{% endhint %}\n',
    );
    // HonKit / legacy GitBook hints plugin
    expect(
      convert(
        '<div class="alert alert-info hints-alert"><div class="hints-icon"><i class="fa fa-info-circle"></i></div><div class="hints-container"><p>Heads up.</p></div></div>',
      ),
    ).toBe('{% hint style="info" %}\nHeads up.\n{% endhint %}\n');
  });

  it('code keeps its bytes and language; gutters, copy buttons and highlighting spans go', () => {
    // MkDocs / HonKit: language-x / lang-x on code; entities decoded, leading spaces and tabs kept
    expect(convert('<pre><code class="language-python">if a &lt; b:\n\treturn "x"  \n</code></pre>')).toBe('```python\nif a < b:\n\treturn "x"  \n```\n');
    expect(convert('<pre><code class="lang-js">let x = 1;\n</code></pre>')).toBe('```js\nlet x = 1;\n```\n');
    // Sphinx: highlight-x wrapper, Pygments spans, prompt kept as written, nothing added
    expect(
      convert(
        '<div class="highlight-console notranslate"><div class="highlight"><pre><span></span><span class="gp">$ </span>pip<span class="w"> </span>install<span class="w"> </span>x\n</pre></div></div>',
      ),
    ).toBe('```console\n$ pip install x\n```\n');
    // Sphinx: no language is `highlight-default`
    expect(convert('<div class="highlight-default notranslate"><div class="highlight"><pre><span></span>plain\n</pre></div></div>')).toBe('```\nplain\n```\n');
    // Sphinx line numbers as a table gutter, caption as title
    expect(
      convert(
        '<div class="literal-block-wrapper docutils container" id="id1"><div class="code-block-caption"><span class="caption-text">setup.py</span><a class="headerlink" href="#id1">¶</a></div>' +
          '<div class="highlight-python notranslate"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre><span class="normal">1</span>\n<span class="normal">2</span></pre></div></td>' +
          '<td class="code"><div class="highlight"><pre><span></span><span class="kn">import</span> <span class="nn">os</span>\n<span class="nb">print</span>(os.sep)\n</pre></div></td></tr></table></div></div>',
      ),
    ).toBe('{% code title="setup.py" %}\n```python\nimport os\nprint(os.sep)\n```\n{% endcode %}\n');
    // Docusaurus: token lines, inline line numbers, title and copy button
    expect(
      convert(
        '<div class="language-ts codeBlockContainer_Ckt0 theme-code-block"><div class="codeBlockTitle_Ktv7">api.ts</div><div class="codeBlockContent_biex"><pre tabindex="0" class="prism-code language-ts codeBlock_bY9V thin-scrollbar"><code class="codeBlockLines_e6Vv">' +
          '<span class="token-line"><span class="codeLineNumber_Tfdd">1</span><span class="codeLineContent_feaV"><span class="token keyword">const</span> a = 1;</span><br></span>' +
          '<span class="token-line"><span class="codeLineNumber_Tfdd">2</span><span class="codeLineContent_feaV"><span class="token plain">  </span><span class="token comment">// two</span></span><br></span>' +
          '</code></pre><div class="buttonGroup__atx"><button type="button" aria-label="Copy code to clipboard" class="clean-btn">Copy</button></div></div></div>',
      ),
    ).toBe('{% code title="api.ts" %}\n```ts\nconst a = 1;\n  // two\n```\n{% endcode %}\n');
    // Material: span.filename inside the highlight block
    expect(
      convert(
        '<div class="language-yaml highlight"><span class="filename">mkdocs.yml</span><pre><span></span><code><span class="nt">site_name</span>: x\n</code></pre></div>',
      ),
    ).toBe('{% code title="mkdocs.yml" %}\n```yaml\nsite_name: x\n```\n{% endcode %}\n');
  });

  it('tab sets become tabs (Docusaurus, Material, sphinx-design)', () => {
    const expected =
      '{% tabs %}\n{% tab title="npm" %}\n```bash\nnpm i x\n```\n{% endtab %}\n\n{% tab title="yarn" %}\n```bash\nyarn add x\n```\n{% endtab %}\n{% endtabs %}\n';
    expect(
      convert(
        '<div class="tabs-container tabList__CuJ"><ul role="tablist" aria-orientation="horizontal" class="tabs"><li role="tab" tabindex="0" aria-selected="true" class="tabs__item tabs__item--active">npm</li><li role="tab" tabindex="-1" aria-selected="false" class="tabs__item">yarn</li></ul>' +
          '<div class="margin-top--md"><div role="tabpanel" class="tabItem_Ymn6"><pre><code class="language-bash">npm i x\n</code></pre></div><div role="tabpanel" class="tabItem_Ymn6" hidden=""><pre><code class="language-bash">yarn add x\n</code></pre></div></div></div>',
      ),
    ).toBe(expected);
    expect(
      convert(
        '<div class="tabbed-set tabbed-alternate" data-tabs="1:2"><input checked="checked" id="__tabbed_1_1" name="__tabbed_1" type="radio"><input id="__tabbed_1_2" name="__tabbed_1" type="radio">' +
          '<div class="tabbed-labels"><label for="__tabbed_1_1">npm</label><label for="__tabbed_1_2">yarn</label></div><div class="tabbed-content">' +
          '<div class="tabbed-block"><div class="language-bash highlight"><pre><span></span><code>npm i x\n</code></pre></div></div><div class="tabbed-block"><div class="language-bash highlight"><pre><span></span><code>yarn add x\n</code></pre></div></div></div></div>',
      ),
    ).toBe(expected);
    expect(
      convert(
        '<div class="sd-tab-set docutils"><input checked="checked" id="sd-tab-item-0" name="sd-tab-set-0" type="radio"><label class="sd-tab-label" for="sd-tab-item-0">npm</label><div class="sd-tab-content docutils"><div class="highlight-bash notranslate"><div class="highlight"><pre><span></span>npm i x\n</pre></div></div></div>' +
          '<input id="sd-tab-item-1" name="sd-tab-set-0" type="radio"><label class="sd-tab-label" for="sd-tab-item-1">yarn</label><div class="sd-tab-content docutils"><div class="highlight-bash notranslate"><div class="highlight"><pre><span></span>yarn add x\n</pre></div></div></div></div>',
      ),
    ).toBe(expected);
  });

  it('figures keep their captions; tables stay tables', () => {
    expect(
      convert(
        '<figure class="align-default" id="id2"><img alt="Arch" src="../_images/arch.png" /><figcaption><p><span class="caption-text">The architecture</span><a class="headerlink" href="#id2">¶</a></p></figcaption></figure>',
        {
          assetTargets: { 'https://docs.test/_images/arch.png': '../.gitbook/assets/arch.png' },
        },
      ),
    ).toBe('<figure><img src="../.gitbook/assets/arch.png" alt="Arch"><figcaption><p>The architecture</p></figcaption></figure>\n');
    expect(convert('<div class="figure"><img src="a.png" alt=""><p class="caption"><span class="caption-text">Old docutils &amp; co</span></p></div>')).toBe(
      '<figure><img src="https://docs.test/guide/a.png" alt=""><figcaption><p>Old docutils &amp; co</p></figcaption></figure>\n',
    );
    expect(convert('<table><thead><tr><th>Name</th><th>Type</th></tr></thead><tbody><tr><td><code>id</code></td><td>string</td></tr></tbody></table>')).toBe(
      '| Name | Type   |\n| ---- | ------ |\n| `id` | string |\n',
    );
  });

  it('math from MathJax, KaTeX, Sphinx and arithmatex becomes $$ TeX', () => {
    expect(convert('<script type="math/tex; mode=display">E = mc^2</script>')).toBe('$$\nE = mc^2\n$$\n');
    expect(convert('<div class="math notranslate nohighlight">\\[\\int_0^1 x\\,dx\\]</div>')).toBe('$$\n\\int_0^1 x\\,dx\n$$\n');
    expect(convert('<p>Area <span class="math notranslate nohighlight">\\(\\pi r^2\\)</span> here.</p>')).toBe('Area $$\\pi r^2$$ here.\n');
    expect(
      convert(
        '<p>Sum <span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>a</mi></mrow><annotation encoding="application/x-tex">a+b</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">a+b</span></span>.</p>',
      ),
    ).toBe('Sum $$a+b$$.\n');
    expect(convert('<div class="arithmatex">\\[x^2\\]</div>')).toBe('$$\nx^2\n$$\n');
  });

  it('links to imported pages and files are rewritten, fragments kept; others become absolute', () => {
    const markdown = convert(
      '<p><a href="other.html#setup">Setup</a>, <a href="#local">here</a>, <a href="../files/guide.pdf">PDF</a>, <a href="https://elsewhere.test/x">out</a>, <a href="missing.html">gone</a>. <img src="img/a.png" alt="A"></p>',
      {
        linkTargets: { 'https://docs.test/guide/other.html': 'other.md' },
        assetTargets: { 'https://docs.test/files/guide.pdf': '../.gitbook/assets/guide.pdf', 'https://docs.test/guide/img/a.png': '../.gitbook/assets/a.png' },
      },
    );
    expect(markdown).toBe(
      '[Setup](other.md#setup), [here](#local), [PDF](../.gitbook/assets/guide.pdf), [out](https://elsewhere.test/x), [gone](https://docs.test/guide/missing.html). ![A](../.gitbook/assets/a.png)\n',
    );
    const analyzed = analyzeHtmlPage(
      `<html><body><main><p><a href="other.html#setup">Setup</a> <a href="../files/guide.pdf">PDF</a> <a href="mailto:x@y.test">mail</a> <img src="img/a.png"></p></main></body></html>`,
      'https://docs.test/guide/page.html',
    );
    expect(analyzed.links).toEqual(['https://docs.test/guide/other.html']);
    expect(analyzed.assets).toEqual(['https://docs.test/files/guide.pdf', 'https://docs.test/guide/img/a.png']);
  });
});

describe('the URL policy in imported pages', () => {
  const page = (content: string, pageFile?: string) =>
    convertHtmlPage(`<html><head><title>T</title></head><body><main>${content}</main></body></html>`, {
      pageUrl: 'https://docs.test/guide/page.html',
      linkTargets: {},
      assetTargets: {},
      ...(pageFile !== undefined ? { pageFile } : {}),
    });

  /** Every destination in the markdown as a markdown reader, then an HTML one, would see it. */
  function destinations(markdown: string): string[] {
    const out: string[] = [];
    const walk = (node: { type: string; url?: string; value?: string; children?: unknown[] }) => {
      if (typeof node.url === 'string') out.push(node.url);
      if (node.type === 'html' && node.value) for (const m of node.value.matchAll(/(?:src|href)="([^"]*)"/g)) out.push(m[1]!);
      for (const c of (node.children ?? []) as Array<typeof node>) walk(c);
    };
    walk(parsePageFile(markdown).document as never);
    return out;
  }

  it('keeps the text of links with javascript:, vbscript:, data: and other schemes, however hidden; warns', () => {
    const hostile = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(2)',
      'java&#x09;script:alert(3)',
      'java&#10;script:alert(4)',
      '&#106;avascript:alert(5)',
      '&amp;#106;avascript:alert(6)',
      'javascript&colon;alert(7)',
      ' vbscript:msgbox(8)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCg5KTwvc2NyaXB0Pg==',
      'file:///etc/passwd',
    ];
    const html =
      hostile.map((h, i) => `<p><a href="${h}">text ${i}</a></p>`).join('') +
      '<p><a href="https://ok.test/">fine</a> <a href="mailto:a@b.test">mail</a> <a href="#top">top</a></p>';
    const { markdown, warnings } = page(html);
    for (let i = 0; i < hostile.length; i++) expect(markdown).toContain(`text ${i}`);
    const urls = destinations(markdown);
    // `&amp;#106;avascript:` is the text `&#106;avascript:`, a relative URL: it became an https one like any other.
    expect(urls).toEqual(['https://docs.test/guide/&#106;avascript:alert(6)', 'https://ok.test/', 'mailto:a@b.test', '#top']);
    expect(markdown.toLowerCase()).not.toMatch(/javascript:|vbscript|data:|file:/);
    expect(warnings.find((w) => w.code === 'webimport.link_refused')?.message).toContain(`${hostile.length - 1} link(s)`);
  });

  it('keeps links of frames and media only with an allowed scheme', () => {
    const { markdown } = page(
      '<iframe src="javascript:alert(1)"></iframe><video src="data:video/mp4;base64,AAAA" poster="javascript:alert(2)"></video><p>after</p>',
    );
    expect(destinations(markdown)).toEqual([]);
    expect(markdown).toContain('after');
  });

  it('keeps data: images as files of the space, linked relatively from the page', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
    const { markdown, files, warnings } = page(
      `<p><img src="data:image/png;base64,${png}" alt="logo"> and again <img src="data:image/png;base64,${png}" alt="logo 2"></p><figure><img src="data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E" alt="d"><figcaption>Diagram</figcaption></figure>`,
      'guide/page.md',
    );
    expect(files?.map((f) => f.path)).toEqual([expect.stringMatching(/^\.gitbook\/assets\/inline\/[0-9a-f]{16}\.png$/), expect.stringMatching(/\.svg$/)]);
    expect(Buffer.from(files![0]!.bytes).toString('base64')).toBe(png);
    expect(new TextDecoder().decode(files![1]!.bytes)).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const urls = destinations(markdown);
    expect(urls).toEqual([`../${files![0]!.path}`, `../${files![0]!.path}`, `../${files![1]!.path}`]);
    expect(markdown).not.toContain('data:');
    expect(warnings.map((w) => w.code)).not.toContain('webimport.data_image_dropped');
  });

  it('drops data: images it cannot keep and images of refused schemes, their alt text kept, with warnings', () => {
    const { markdown, files, warnings } = page(
      '<p><img src="data:text/html;base64,PHNjcmlwdD4=" alt="not an image"> <img src="javascript:alert(1)" alt="script"> <img src="data:image/png;base64,iVBORw0KGgo=" alt="no place"></p>',
    );
    expect(files).toBeUndefined();
    expect(markdown).toContain('not an image');
    expect(markdown).toContain('script');
    expect(markdown).toContain('no place');
    expect(destinations(markdown)).toEqual([]);
    expect(
      warnings
        .map((w) => w.code)
        .filter((c) => c !== 'webimport.generator_unrecognised')
        .sort(),
    ).toEqual(['webimport.data_image_dropped', 'webimport.image_refused']);
  });
});
