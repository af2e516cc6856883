import { describe, it, expect } from 'vitest';
import { parsePageFile, serializePageFile } from '../../../src/format/markdown/index.js';
import { relaxDelimiterEscapes } from '../../../src/format/markdown/serialize/delimiter-escapes.js';
import { legacyStyle } from '../../../src/format/markdown/style/detect.js';

/** A legacy-era page (escaped parentheses, trailing blank line) with the given paragraph. */
function legacyPage(paragraph: string): string {
  return `# T\n\nSee \\(a\\) and \\(b\\).\n\n${paragraph}\n\n`;
}

describe('legacy delimiter escapes: only where needed', () => {
  it('keeps broken-flanking emphasis markers unescaped (they re-parse as the same literal text)', () => {
    for (const p of [
      '**Unable. ** “Unable” is nearly the passive voice.',
      '**Release date: **2021-09-30',
      'GIN** **可以支援',
      '**練習：**試試看',
      '* **description \\(str,** 选**\\)**: UI',
      '由 .key 所組成_。_jsonb\\_ops 也支持',
    ]) {
      const text = legacyPage(p);
      expect(serializePageFile(parsePageFile(text))).toBe(text);
    }
  });

  it('still escapes delimiters that would otherwise form emphasis, and lone or intra-word ones', () => {
    const style = legacyStyle();
    expect(relaxDelimiterEscapes('\\*foo\\* bar', style)).toBe('\\*foo\\* bar');
    expect(relaxDelimiterEscapes('or \\*, it matches', style)).toBe('or \\*, it matches');
    expect(relaxDelimiterEscapes('pg\\_hba and pg\\_ident', style)).toBe('pg\\_hba and pg\\_ident');
    expect(relaxDelimiterEscapes('\\*\\*a: \\*\\*b', style)).toBe('**a: **b');
    // A spaced closer only closes a strong pair whose opener touches its text.
    expect(relaxDelimiterEscapes('\\*\\*Bad. \\*\\* Error', style)).toBe('**Bad. ** Error');
    expect(relaxDelimiterEscapes('x \\*\\* a \\*\\* b', style)).toBe('x \\*\\* a \\*\\* b');
    expect(relaxDelimiterEscapes('a\\* b \\* c', style)).toBe('a\\* b \\* c');
    // An underscore "pair" opening before closing punctuation / closing after opening punctuation is literal.
    expect(relaxDelimiterEscapes('「pg\\_」開頭，「 pg\\_」開頭', style)).toBe('「pg\\_」開頭，「 pg\\_」開頭');
    expect(relaxDelimiterEscapes('實體「\\_SYSTEM」授予。不是「\\_SYSTEM」', style)).toBe('實體「\\_SYSTEM」授予。不是「\\_SYSTEM」');
  });

  it('relaxes a pair across inline code; ASCII intra-word underscores and destinations stay escaped', () => {
    const style = legacyStyle();
    expect(relaxDelimiterEscapes('Byte\\_`n`\\_', style)).toBe('Byte_`n`_');
    expect(relaxDelimiterEscapes('apply to\\_positions\\_, not\\_lexemes\\_. If', style)).toBe('apply to\\_positions\\_, not\\_lexemes\\_. If');
    expect(relaxDelimiterEscapes('[a\\_b \\_](https://x.org/a\\_b/\\_/c)', style)).toBe('[a\\_b \\_](https://x.org/a\\_b/\\_/c)');
  });
});

describe('legacy delimiter escapes: GitBook-escaped literals stay escaped', () => {
  it('keeps escapes on spaced, empty and content-less runs', () => {
    const style = legacyStyle();
    expect(relaxDelimiterEscapes('3\\*eta, 27 \\(9 \\* eta\\)', style)).toBe('3\\*eta, 27 \\(9 \\* eta\\)');
    expect(relaxDelimiterEscapes('x: \\_\\*\\*\\_This', style)).toBe('x: \\_\\*\\*\\_This');
    expect(relaxDelimiterEscapes('\\*\\*\\*\\*[a](b)', style)).toBe('\\*\\*\\*\\*[a](b)');
  });
});

describe('pipe escaping in prose follows the file', () => {
  it('keeps `\\|` outside tables when the file escapes pipes, and plain `|` when it does not', () => {
    const escaped = legacyPage('* **step** \\(int\\|None\\) – step number');
    expect(parsePageFile(escaped).style.escapePipe).toBe(true);
    expect(serializePageFile(parsePageFile(escaped))).toBe(escaped);
    const plain = legacyPage('a | b and c | d');
    expect(parsePageFile(plain).style.escapePipe).toBe(false);
    expect(serializePageFile(parsePageFile(plain))).toBe(plain);
  });
});

describe('hash escaping in prose follows the file', () => {
  it('keeps `\\#` in prose when the file escapes it, and plain `#` when it does not', () => {
    const escaped = legacyPage('在 \\# 之前增加註解，see [x.html\\#modes](https://x.org/x.html#modes)');
    expect(parsePageFile(escaped).style.escapeHash).toBe(true);
    expect(serializePageFile(parsePageFile(escaped))).toBe(escaped);
    const plain = legacyPage('issue #12 and #13');
    expect(parsePageFile(plain).style.escapeHash).toBe(false);
    expect(serializePageFile(parsePageFile(plain))).toBe(plain);
  });
});

describe('tilde escaping in prose follows the file', () => {
  it('writes `~` plain when the file does, in prose and table cells', () => {
    const plain = legacyPage('透過 chmod 0600 ~/.pgpass 等命令\n\n| a | b |\n| :--- | :--- |\n| x | defaults to ~/.config/wandb |');
    expect(parsePageFile(plain).style.escapeTilde).toBe(false);
    expect(serializePageFile(parsePageFile(plain))).toBe(plain);
    const cell = legacyPage('透過 ~/.pgpass\n\n| a | b |\n| :--- | :--- |\n| x | <p>see</p> ~/.config |');
    expect(serializePageFile(parsePageFile(cell))).toBe(cell);
    const escaped = legacyPage('運算子 LIKE 和 \\~ 的查詢');
    expect(parsePageFile(escaped).style.escapeTilde).toBe(true);
    expect(serializePageFile(parsePageFile(escaped))).toBe(escaped);
  });

  it('keeps the escape where a plain `~` would form strikethrough', () => {
    const style = { ...legacyStyle(), escapeTilde: false };
    // Unescaping both would give strikethrough: one escape is kept.
    expect(relaxDelimiterEscapes('a \\~b\\~ c', style)).toBe('a ~b\\~ c');
    expect(relaxDelimiterEscapes('see \\~/x and \\~\\~\\~\\~passing', style)).toBe('see ~/x and ~~~~passing');
  });
});

describe('text inside inline HTML in table cells', () => {
  const table = (cell: string) => `| a |\n| - |\n| ${cell} |\n`;
  it('is written as HTML content (`&#x3C;`, `&#x26;`, literal `*`/`[`) when the cell re-parses the same', () => {
    for (const cell of [
      '<p><code>count</code> ( <code>*</code> )</p>',
      '<p><code>&#x3C;anonymous></code> and <code>?&#x26;</code></p>',
      "<p><code>'[2011-01-01,2011-03-01)'::tsrange @> x</code></p>",
      '<p>reads as <code>********</code></p>',
    ]) {
      const text = table(cell)
        .replace('| - |', `| ${'-'.repeat(cell.length)} |`)
        .replace('| a |', `| a${' '.repeat(cell.length - 1)} |`);
      expect(serializePageFile(parsePageFile(text))).toBe(text);
    }
  });

  it('keeps Markdown escapes where the raw text would change the cell', () => {
    const text = '| a |\n| - |\n| <b>\\*x</b> <b>y\\*</b> |\n';
    const page = parsePageFile(text);
    const again = parsePageFile(serializePageFile(page));
    expect(JSON.stringify(again.document, (k, v) => (k === 'position' ? undefined : v))).toBe(
      JSON.stringify(page.document, (k, v) => (k === 'position' ? undefined : v)),
    );
    expect(serializePageFile(page)).toContain('\\*x');
  });
});

describe('list item spacing', () => {
  it('keeps a list mixing blank-separated and adjacent items as written', () => {
    const text = legacyPage('* one\n* two\n* three\n\n  more of three\n\n* four');
    expect(serializePageFile(parsePageFile(text))).toBe(text);
  });
});

describe('image alt text follows the file', () => {
  it('counts `\\|` in alt text as the file escaping pipes', () => {
    const text = legacyPage('![Every model \\| Airbnb Project](../a.png)');
    expect(parsePageFile(text).style.escapePipe).toBe(true);
    expect(serializePageFile(parsePageFile(text))).toBe(text);
  });

  it('keeps `&apos;` in alt text when the file writes it so', () => {
    const text = legacyPage('![Here&apos;s the settings.](../a.png)');
    expect(parsePageFile(text).style.altApos).toBe(true);
    expect(serializePageFile(parsePageFile(text))).toBe(text);
    const plain = legacyPage("![Here's the settings.](../a.png)");
    expect(serializePageFile(parsePageFile(plain))).toBe(plain);
  });
});

describe('autolinks are no evidence of escaping', () => {
  it('ignores `~` inside `<http://…>` when detecting tilde escaping', () => {
    const text = legacyPage('<http://x.org/~checkout~/a> and [http://x.org/~checkout\\~/b](http://x.org/b)');
    expect(parsePageFile(text).style.escapeTilde).toBe(true);
  });
});

describe('blank line after a list inside a blockquote', () => {
  it('keeps the paragraph after the list a separate paragraph', () => {
    const text = '# T\n\n> Run:\n>\n> * one\n> * two\n>\n> Proceed? (yes/no)\n';
    const page = parsePageFile(text);
    expect(serializePageFile(page)).toBe(text);
    expect(page.document.children[0]!.type === 'blockquote' && page.document.children[0]!.children.length).toBe(3);
  });
});

describe('legacy named entities and broken tables re-parse to the same model', () => {
  const model = (text: string) => JSON.stringify(parsePageFile(text).document, (k, v) => (k === 'position' ? undefined : v));
  it('writes a line-start `>` as `&gt;` (not `\\&gt;`)', () => {
    const text = legacyPage('a &lt; b\n\n&gt;\n\nc');
    const out = serializePageFile(parsePageFile(text));
    expect(model(out)).toBe(model(text));
  });

  it('keeps the delimiter row as wide as the header when a body row has extra cells', () => {
    const text = legacyPage('| a | b |\n| :--- | :--- |\n| `x` | `?|` `y` |');
    const out = serializePageFile(parsePageFile(text));
    expect(model(out)).toBe(model(text));
  });
});

describe('`<` as `&lt;` everywhere when the file never writes it plain', () => {
  it('writes `&lt;=` (no escape needed) as the file does', () => {
    const text = legacyPage('a &lt;b&gt; c\n\n| x | y |\n| :--- | :--- |\n| `04:05 PM` | hour must be &lt;= 12 |');
    expect(parsePageFile(text).style.ltEntityAlways).toBe(true);
    expect(serializePageFile(parsePageFile(text))).toBe(text);
  });

  it('keeps plain `<` where the file has some', () => {
    const text = legacyPage('a &lt;b&gt; c and x <= 12');
    expect(parsePageFile(text).style.ltEntityAlways).toBe(false);
    expect(serializePageFile(parsePageFile(text))).toBe(text);
  });
});

describe('blank lines holding spaces', () => {
  it('are written back as they are between top-level paragraphs', () => {
    const text = legacyPage('Click **Add**.  \n\n  \nThen choose **X**.  \n  \nYou are done.');
    expect(serializePageFile(parsePageFile(text))).toBe(text);
  });
});
