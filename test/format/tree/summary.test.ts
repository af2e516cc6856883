import { describe, expect, it } from 'vitest';
import { parseSummary } from '../../../src/format/summary/parse.js';
import { serializeSummary } from '../../../src/format/summary/serialize.js';

describe('SUMMARY.md parser', () => {
  it('reads groups, anchors, nesting, link titles, external links, angle and escaped destinations', () => {
    const text = [
      '# Table of contents',
      '',
      '* [Welcome](README.md)',
      '* [pg\\_hba.conf](admin/pg\\_hba.conf.md "Sidebar")',
      '',
      '## 快速开始 <a href="#quick-start" id="quick-start"></a>',
      '',
      '* [Install](guides/README.md)',
      '  * [Linux](<guides/linux (1).md>)',
      '    * [Deep](guides/deep.md#part)',
      '* [Status](https://status.example.com)',
      '',
      '***',
      '',
      '* [Tail](tail.md)',
      '',
    ].join('\n');
    const { toc, warnings } = parseSummary(text, 'SUMMARY.md');
    expect(warnings).toEqual([]);
    expect(toc.sections).toHaveLength(3);
    const [first, group, untitled] = toc.sections;
    expect(first!.entries.map((e) => e.kind === 'link' && e.dest)).toEqual(['README.md', 'admin/pg_hba.conf.md']);
    const e = first!.entries[1]!;
    expect(e.kind === 'link' && e.text).toBe('pg_hba.conf');
    expect(e.kind === 'link' && e.linkTitle).toBe('Sidebar');
    expect(group!.group).toMatchObject({ title: '快速开始', anchor: 'quick-start', untitled: false });
    const install = group!.entries[0]!;
    expect(install.children).toHaveLength(1);
    expect(install.children[0]!.kind === 'link' && install.children[0]!.dest).toBe('guides/linux (1).md');
    expect(install.children[0]!.children[0]!.kind === 'link' && install.children[0]!.children[0]!.dest).toBe('guides/deep.md#part');
    expect(untitled!.group?.untitled).toBe(true);
    expect(toc.style.escapeDestinations).toBe(true);
    expect(serializeSummary(toc)).toBe(text);
  });

  it('accepts 4-space nesting and `-` bullets and keeps that style', () => {
    const text = '# Summary\n\n- [A](a.md)\n    - [B](a/b.md)\n        - [C](a/c.md)\n- [D](d.md)\n';
    const { toc } = parseSummary(text, 'SUMMARY.md');
    expect(toc.style).toMatchObject({ indent: 4, bullet: '-', heading: 'Summary' });
    expect(toc.sections[0]!.entries[0]!.children[0]!.children).toHaveLength(1);
    expect(serializeSummary(toc)).toBe(text);
  });

  it('treats entries in HTML comments as hidden and reports them', () => {
    const text = '# Table of contents\n\n* [A](a.md)\n<!-- * [Hidden](hidden.md) -->\n* [B](b.md)\n';
    const { toc, warnings } = parseSummary(text, 'SUMMARY.md');
    expect(toc.sections[0]!.entries).toHaveLength(2);
    expect(warnings.map((w) => w.code)).toEqual(['FORMAT_SUMMARY_COMMENTED_ENTRY']);
    expect(toc.comments).toEqual(['<!-- * [Hidden](hidden.md) -->']);
    // Written back where it stood, not at the end.
    expect(serializeSummary(toc)).toBe(text);
  });

  it('keeps comments at their place: after the heading, inside nested entries, after a group heading, at the end', () => {
    const text = [
      '# Table of contents',
      '',
      '<!-- top note -->',
      '* [A](a.md)',
      '  * [A1](a1.md)',
      '  <!-- * [A2](a2.md) -->',
      '* [B](b.md)',
      '',
      '## Group',
      '',
      '<!-- * [G0](g0.md) -->',
      '* [G1](g1.md)',
      '',
      '<!-- end -->',
      '',
    ].join('\n');
    const { toc } = parseSummary(text, 'SUMMARY.md');
    expect(toc.comments).toHaveLength(4);
    expect(serializeSummary(toc)).toBe(text);
  });

  it('reads OpenAPI YAML entries verbatim', () => {
    const text = [
      '# Table of contents',
      '',
      '* [API](api/README.md)',
      '  * ```yaml',
      '    type: builtin:openapi',
      '    props:',
      '      models: true',
      '    dependencies:',
      '      spec:',
      '        ref:',
      '          kind: openapi',
      '          spec: pets',
      '    ```',
      '* [After](after.md)',
      '',
    ].join('\n');
    const { toc, warnings } = parseSummary(text, 'SUMMARY.md');
    expect(warnings).toEqual([]);
    const api = toc.sections[0]!.entries[0]!;
    expect(api.children[0]!.kind).toBe('yaml');
    expect(api.children[0]!.kind === 'yaml' && api.children[0]!.source).toContain('type: builtin:openapi\nprops:\n  models: true');
    expect(toc.sections[0]!.entries).toHaveLength(2);
    expect(serializeSummary(toc)).toBe(text);
  });

  it('reports lines it cannot read instead of failing', () => {
    const { toc, warnings } = parseSummary('# T\n\n* [A](a.md)\nrandom prose\n* not a link\n* [broken](\n', 'SUMMARY.md');
    expect(toc.sections[0]!.entries).toHaveLength(1);
    expect(warnings.every((w) => w.code === 'FORMAT_SUMMARY_UNPARSED_LINE')).toBe(true);
    expect(warnings).toHaveLength(3);
  });
});
