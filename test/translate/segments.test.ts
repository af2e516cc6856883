import { describe, expect, it } from 'vitest';
import { assemblePage, extractSegments, textSegment } from '../../src/translate/segments.js';
import { countWords } from '../../src/translate/words.js';

const PAGE = `---
description: How to install the tool
icon: rocket
---

# Install

Run \`npm install folio\` and read [the guide](https://example.com/guide "Guide") or <https://example.com>.

{% hint style="info" %}
This is **very** important, see ![a diagram](.gitbook/assets/d.png) and $$x^2$$.
{% endhint %}

\`\`\`bash
echo "do not translate"
\`\`\`

| Name | Value |
| ---- | ----- |
| Port | 8080  |

<figure><img src="a.png" alt="Alt in HTML"><figcaption><p>A caption</p></figcaption></figure>
`;

/** A fake engine: upper-cases text, keeps placeholders and escapes. */
function upper(markup: string): string {
  return markup.replace(/(<[^>]+>|&[a-z]+;)|([^<&]+)/g, (all, tag: string | undefined, text: string | undefined) => (tag ? tag : text!.toUpperCase()));
}

describe('segments of a page', () => {
  it('translates titles, descriptions, paragraphs, table cells, alt text and captions; never code, URLs, tags or other front matter', () => {
    const { segments } = extractSegments(PAGE, []);
    expect(segments.filter((s) => s.translatable).map((s) => s.markup)).toEqual([
      'Install',
      'How to install the tool',
      'Run <x1/> and read <x2>the guide</x2> or <x3/>.',
      'This is <x1>very</x1> important, see <x2/> and <x3/>.',
      'a diagram',
      'Name',
      'Value',
      'Port',
      'A caption',
    ]);
    const all = segments.map((s) => s.markup).join('\n');
    for (const never of ['npm install', 'example.com', 'echo', 'hint', 'info', 'rocket', 'Alt in HTML', 'a.png']) expect(all).not.toContain(never);
    expect(segments.find((s) => s.markup === '8080')?.translatable).toBe(false);
  });

  it('puts translations back around the kept placeholders, leaving code, URLs, tags and HTML attributes byte for byte', () => {
    const { segments } = extractSegments(PAGE, []);
    const out = assemblePage(
      PAGE,
      [],
      segments.map((s) => (s.translatable ? upper(s.markup) : null)),
    );
    expect(out.kept).toBe(0);
    expect(out.title).toBe('INSTALL');
    expect(out.description).toBe('HOW TO INSTALL THE TOOL');
    expect(out.markdown).toContain('description: HOW TO INSTALL THE TOOL\nicon: rocket\n');
    expect(out.markdown).toContain('RUN `npm install folio` AND READ [THE GUIDE](https://example.com/guide "Guide") OR <https://example.com>.');
    expect(out.markdown).toContain('{% hint style="info" %}\nTHIS IS **VERY** IMPORTANT, SEE ![A DIAGRAM](.gitbook/assets/d.png) AND $$x^2$$.\n{% endhint %}');
    expect(out.markdown).toContain('```bash\necho "do not translate"\n```');
    expect(out.markdown).toContain('<figure><img src="a.png" alt="Alt in HTML"><figcaption><p>A CAPTION</p></figcaption></figure>');
  });

  it('keeps the source of a segment whose translation lost or broke a placeholder, and counts it', () => {
    const { segments } = extractSegments(PAGE, []);
    const targets = segments.map((s) => (s.translatable ? upper(s.markup) : null));
    const i = segments.findIndex((s) => s.markup.startsWith('This is <x1>very</x1>'));
    targets[i] = 'ESTO ES MUY IMPORTANTE <x2/> y <x3/>.';
    const j = segments.findIndex((s) => s.markup.startsWith('Run <x1/>'));
    targets[j] = 'CORRE <x1/> <x2>LA GUÍA</x3> <x3/>.';
    const out = assemblePage(PAGE, [], targets);
    expect(out.kept).toBe(2);
    expect(out.markdown).toContain('This is **very** important, see ![A DIAGRAM](.gitbook/assets/d.png) and $$x^2$$.');
    expect(out.markdown).toContain('Run `npm install folio` and read [the guide](https://example.com/guide "Guide") or <https://example.com>.');
  });

  it('keeps glossary terms as placeholders put back as the glossary says; only segments with a term change their key', () => {
    const terms = [{ source: 'guide', target: 'GUÍA-OFICIAL' }];
    const plain = extractSegments(PAGE, []).segments;
    const withTerms = extractSegments(PAGE, terms).segments;
    const changed = withTerms.filter((s, i) => s.hash !== plain[i]!.hash || s.glossaryVersion !== plain[i]!.glossaryVersion);
    expect(changed.map((s) => s.markup)).toEqual(['Run <x1/> and read <x2>the <x3/></x2> or <x4/>.']);
    expect(changed[0]!.glossaryVersion).not.toBe('');
    const out = assemblePage(
      PAGE,
      terms,
      withTerms.map((s) => (s.translatable ? upper(s.markup) : null)),
    );
    expect(out.markdown).toContain('[THE GUÍA-OFICIAL](https://example.com/guide "Guide")');
  });

  it('escapes text for the engine and reads entities back', () => {
    const md = 'Use a < b && c > d in "quotes".\n';
    const [segment] = extractSegments(md, []).segments;
    expect(segment!.markup).toBe('Use a &lt; b &amp;&amp; c &gt; d in "quotes".');
    const out = assemblePage(md, [], ['Usa a &lt; b &amp;&amp; c &gt; d entre &quot;comillas&quot;.']);
    expect(out.markdown).toBe('Usa a < b && c > d entre "comillas".\n');
  });

  it('a title as a segment', () => {
    const t = textSegment('Getting started & more', []);
    expect(t.segment.markup).toBe('Getting started &amp; more');
    expect(t.apply('Primeros pasos &amp; más')).toBe('Primeros pasos & más');
    expect(t.apply('<x9/> roto')).toBeNull();
  });

  it('counts words, CJK characters one by one', () => {
    expect(countWords("Hello, world: it's 3 o'clock — state-of-the-art.")).toBe(6);
    expect(countWords('使用 Folio 翻译')).toBe(5);
    expect(countWords('  ')).toBe(0);
  });
});
