import { describe, expect, it } from 'vitest';
import { headingAnchor, searchSections } from '../../src/search/sections.js';

describe('searchable sections of a page', () => {
  it('splits at headings with GitBook anchors, keeps text of blocks, tables and code blocks', () => {
    const md = [
      '---',
      'description: About the thing.',
      '---',
      '',
      'Intro text.',
      '',
      '## Getting Started!',
      '',
      '{% hint style="info" %}',
      'A hint about tokens.',
      '{% endhint %}',
      '',
      '```js',
      'const secretCode = 1;',
      '```',
      '',
      '{% code title="cheat.sh" %}',
      '```bash',
      'kubectl rollout undo deployment/web',
      '```',
      '{% endcode %}',
      '',
      '| Name | Value |',
      '| ---- | ----- |',
      '| alpha | beta |',
      '',
      '## Getting Started',
      '',
      '## Custom <a href="#mine" id="mine"></a>',
      '',
      '## 資料庫 管理',
      '',
      'text',
    ].join('\n');
    const page = searchSections(md);
    expect(page.description).toBe('About the thing.');
    expect(page.sections.map((s) => [s.anchor, s.title])).toEqual([
      ['', ''],
      ['getting-started', 'Getting Started!'],
      ['getting-started-1', 'Getting Started'],
      ['mine', 'Custom'],
      ['資料庫-管理', '資料庫 管理'],
    ]);
    expect(page.sections[0]!.body).toBe('Intro text.');
    const body = page.sections[1]!.body;
    expect(body).toContain('A hint about tokens.');
    expect(body).toContain('alpha');
    expect(body).toContain('const secretCode = 1;');
    expect(body).toContain('kubectl rollout undo deployment/web');
  });

  it('makes anchors like GitBook', () => {
    expect(headingAnchor('  Hello, World: v2.0 ')).toBe('hello-world-v2-0');
  });
});
