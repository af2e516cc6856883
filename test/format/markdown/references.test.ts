import { describe, it, expect } from 'vitest';
import { parsePageFile, serializePageFile, collectReferences, rewriteReferences } from '../../../src/format/markdown/index.js';

const text = `---
cover: .gitbook/assets/hero.png
---

# Refs

See [page](../a/b.md "mention") and ![](<../.gitbook/assets/image (1).png>) and ![x](../.gitbook/assets/image%20%281%29.png).

[def]: ./defined.md

<figure><img src="../.gitbook/assets/shot (3).png" alt="Alt"><figcaption></figcaption></figure>

<picture><source srcset="../.gitbook/assets/dark.svg" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/light.svg" alt=""></picture>

{% content-ref url="../formatting/inline.md" %}
[inline.md](../formatting/inline.md)
{% endcontent-ref %}

{% page-ref page="../x.md" %}

{% file src="../.gitbook/assets/report (1).pdf" %}

{% embed url="https://youtu.be/x" %}

{% include "../.gitbook/includes/prereq.md" %}

{% openapi src="../.gitbook/assets/api.yaml" path="/pets" method="post" %}
[api.yaml](<../.gitbook/assets/api.yaml>)
{% endopenapi %}
`;

describe('references', () => {
  it('collects every kind', () => {
    const page = parsePageFile(text);
    const refs = collectReferences(page).map((r) => `${r.kind}:${r.attribute ?? r.tag ?? ''}:${r.url}`);
    expect(refs).toEqual([
      'link::../a/b.md',
      'image::../.gitbook/assets/image (1).png',
      'image::../.gitbook/assets/image%20%281%29.png',
      'definition::./defined.md',
      'html:src:../.gitbook/assets/shot (3).png',
      'html:srcset:../.gitbook/assets/dark.svg',
      'html:src:../.gitbook/assets/light.svg',
      'liquid:url:../formatting/inline.md',
      'link::../formatting/inline.md',
      'liquid:page:../x.md',
      'liquid:src:../.gitbook/assets/report (1).pdf',
      'liquid:url:https://youtu.be/x',
      'liquid:include:../.gitbook/includes/prereq.md',
      'liquid:src:../.gitbook/assets/api.yaml',
      'link::../.gitbook/assets/api.yaml',
      'frontMatter:cover:.gitbook/assets/hero.png',
    ]);
  });

  it('identity rewrite changes no byte; a real rewrite changes only the target', () => {
    const page = parsePageFile(text);
    expect(rewriteReferences(page, (r) => r.url)).toBe(0);
    expect(serializePageFile(page, { original: { text, page: parsePageFile(text) } })).toBe(text);
    expect(serializePageFile(page)).toBe(text);
    const n = rewriteReferences(page, (r) => r.url.replace('shot (3).png', 'shot (4).png').replace('../x.md', 'page-id:123'));
    expect(n).toBe(2);
    const out = serializePageFile(page, { original: { text, page: parsePageFile(text) } });
    expect(out).toBe(text.replace('shot (3).png', 'shot (4).png').replace('page="../x.md"', 'page="page-id:123"'));
  });
});
