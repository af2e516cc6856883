import { describe, it, expect } from 'vitest';
import type { RootContent } from 'mdast';
import { parsePageFile, serializePageFile, pageFilesEqual, type LiquidBlock } from '../../../src/format/markdown/index.js';

function roundTrip(text: string) {
  const page = parsePageFile(text);
  const out = serializePageFile(page);
  expect(out).toBe(text);
  expect(pageFilesEqual(parsePageFile(out), page)).toBe(true);
  return page;
}

function block(page: ReturnType<typeof parsePageFile>, i = 0): LiquidBlock {
  const b = page.document.children[i] as RootContent;
  expect(b.type).toBe('liquidBlock');
  return b as LiquidBlock;
}

describe('liquid plugins', () => {
  it('hint: style + icon attributes, content on the next line', () => {
    const p = roundTrip('{% hint style="warning" icon="books" %}\n#### Title\n\nSome **text**.\n{% endhint %}\n');
    const b = block(p);
    expect(b.name).toBe('hint');
    expect(b.attributes).toEqual([
      { name: 'style', value: 'warning', quote: '"' },
      { name: 'icon', value: 'books', quote: '"' },
    ]);
    expect(b.children.map((c) => c.type)).toEqual(['heading', 'paragraph']);
  });

  it('hint ends a list that precedes the end tag (no lazy continuation)', () => {
    const p = roundTrip('{% hint style="info" %}\n* a\n* b\n{% endhint %}\n');
    expect(block(p).children[0]!.type).toBe('list');
  });

  it('tabs: nested tab blocks with GitBook spacing', () => {
    const p = roundTrip(
      '{% tabs %}\n{% tab title="Linux" icon="linux" %}\nRun it.\n{% endtab %}\n\n{% tab title="macOS" %}\n```bash\nbrew install x\n```\n{% endtab %}\n{% endtabs %}\n',
    );
    const tabs = block(p);
    expect(tabs.children.map((c) => (c as LiquidBlock).name)).toEqual(['tab', 'tab']);
    expect((tabs.children[1] as LiquidBlock).children[0]!.type).toBe('code');
  });

  it('code: options around a fence; liquid inside the fence is code', () => {
    const p = roundTrip('{% code title="app.js" overflow="wrap" lineNumbers="true" %}\n```js\n{% raw %}\nconst a = 1;\n```\n{% endcode %}\n');
    const code = block(p).children[0]!;
    expect(code.type).toBe('code');
    expect((code as { value: string }).value).toContain('{% raw %}');
  });

  it('embed with and without end tag; legacy caption attribute', () => {
    const p = roundTrip(
      '{% embed url="https://youtu.be/x" %}\n\n{% embed url="https://a.b" %}\nCaption text\n{% endembed %}\n\n{% embed url="https://c.d" caption="Old" %}\n',
    );
    expect(block(p, 0).selfClosing).toBe(true);
    expect(block(p, 1).selfClosing).toBe(false);
    expect(block(p, 2).attributes[1]).toEqual({ name: 'caption', value: 'Old', quote: '"' });
  });

  it('file, content-ref, page-ref, include', () => {
    const p = roundTrip(
      '{% file src="../.gitbook/assets/report (1).pdf" %}\n\n{% content-ref url="../formatting/inline.md" %}\n[inline.md](../formatting/inline.md)\n{% endcontent-ref %}\n\n{% page-ref page="../x.md" %}\n\n{% include "../.gitbook/includes/prereq.md" %}\n',
    );
    expect(p.document.children.map((c) => (c as LiquidBlock).name)).toEqual(['file', 'content-ref', 'page-ref', 'include']);
    expect(block(p, 3).attributes[0]).toEqual({ name: null, value: '../.gitbook/includes/prereq.md', quote: '"' });
  });

  it('openapi families incl. legacy api-method with unquoted values', () => {
    roundTrip('{% openapi-operation spec="my-api" path="/pets/{id}" method="get" %}\n[OpenAPI my-api](https://x)\n{% endopenapi-operation %}\n');
    roundTrip('{% openapi src="../.gitbook/assets/api.yaml" path="/pets" method="post" %}\n[api.yaml](<../.gitbook/assets/api.yaml>)\n{% endopenapi %}\n');
    const p = roundTrip(
      '{% api-method method="get" host="https://h" path="/v1/x" %}\n{% api-method-summary %}\nGet\n{% endapi-method-summary %}\n\n{% api-method-spec %}\n{% api-method-request %}\n{% api-method-path-parameters %}\n{% api-method-parameter name="id" type="string" required=true %}\nThe\\_id\n{% endapi-method-parameter %}\n{% endapi-method-path-parameters %}\n{% endapi-method-request %}\n{% endapi-method-spec %}\n{% endapi-method %}\n',
    );
    expect(block(p).name).toBe('api-method');
  });

  it('stepper, columns, updates, if, prompt, integration block', () => {
    roundTrip('{% stepper %}\n{% step %}\n### One\n\nDo it.\n{% endstep %}\n\n{% step %}\n### Two\n{% endstep %}\n{% endstepper %}\n');
    roundTrip('{% columns %}\n{% column width="50%" %}\nLeft\n{% endcolumn %}\n\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}\n');
    roundTrip('{% updates format="full" %}\n{% update date="2025-12-25" tags="beta,api" %}\n## New\n{% endupdate %}\n{% endupdates %}\n');
    const p = roundTrip('{% if visitor.claims.unsigned.isPremium %}\nPremium\n{% endif %}\n');
    expect(block(p).attributes).toEqual([{ name: null, value: 'visitor.claims.unsigned.isPremium', quote: '' }]);
    roundTrip('{% prompt description="Ask" icon="sparkle" %}\n```\nHello\n```\n{% endprompt %}\n');
    expect(block(roundTrip('{% @mermaid/diagram content="graph TD" %}\n')).selfClosing).toBe(true);
  });

  it('unknown tags stay text; escaped liquid keeps its escapes', () => {
    const p = roundTrip('{% raw %}\n');
    expect(p.document.children[0]!.type).toBe('paragraph');
    const q = roundTrip('\\{% hint style="info" %\\}\n');
    expect(q.document.children[0]!.type).toBe('paragraph');
  });
});

describe('markdown conventions', () => {
  it('title with anchor, front matter, math, mark, figure, details, buttons, icons stay lossless', () => {
    const p = roundTrip(
      '---\ndescription: >-\n  A long description.\nicon: book-open\n---\n\n# Title <a href="#t" id="t"></a>\n\n$$\nx^2\n$$\n\nInline $$a_b$$ math and <mark style="color:orange;">mark</mark> <i class="fa-github">:github:</i>.\n\n<figure><img src="../.gitbook/assets/a (1).png" alt=""><figcaption><p>Cap</p></figcaption></figure>\n\n<details>\n\n<summary>More</summary>\n\nBody\n\n</details>\n\n<a href="page.md" class="button primary">Go</a>\n',
    );
    expect(p.title).toEqual({ text: 'Title', anchor: 't' });
    expect(p.frontMatter?.icon).toBe('book-open');
    expect(p.document.children[0]!.type).toBe('math');
  });

  it('current-era escapes: underscores, brackets, hex entity for trailing space', () => {
    const p = roundTrip('# eth\\_send\\_Bundle\n\nSee \\[paid plans] and a\\_b&#x20;\n');
    expect(p.title?.text).toBe('eth_send_Bundle');
    expect(p.style.era).toBe('current');
  });

  it('legacy-era style is detected and reproduced', () => {
    const text = '# Title\n\nCall `x` \\(see [wandb.alert\\(\\)](a.md)\\) for W&B.  \nNext line\n\n| A | B |\n| :--- | :--- |\n| 1 |  |\n\n';
    const p = roundTrip(text);
    expect(p.style.era).toBe('legacy');
    expect(p.style.hardBreak).toBe('spaces');
    expect(p.style.trailingNewlines).toBe(2);
  });

  it('wide list markers for items with several blocks', () => {
    roundTrip('1.  Open the page\n\n    <figure><img src="a.png" alt=""><figcaption></figcaption></figure>\n2.  Click\n\n    More.\n');
    roundTrip('* [ ] todo\n  * [x] done\n');
  });

  it('a new page gets the current style', () => {
    const page = parsePageFile('');
    page.title = { text: 'New page' };
    page.document.children = [
      {
        type: 'list',
        ordered: false,
        spread: false,
        children: [
          { type: 'listItem', spread: false, children: [{ type: 'paragraph', children: [{ type: 'emphasis', children: [{ type: 'text', value: 'a_b' }] }] }] },
        ],
      },
    ];
    page.style.trailingNewlines = 1;
    expect(serializePageFile(page)).toBe('# New page\n\n* _a\\_b_\n');
  });
});
