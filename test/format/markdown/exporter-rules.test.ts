import { describe, it, expect } from 'vitest';
import { parsePageFile, serializePageFile } from '../../../src/format/markdown/index.js';
import { relaxDelimiterEscapes } from '../../../src/format/markdown/serialize/delimiter-escapes.js';
import { legacyStyle } from '../../../src/format/markdown/style/detect.js';

/** Parse and write a page from its model alone (what `roundtrip --reserialize` does). */
const reserialize = (text: string) => serializePageFile(parsePageFile(text));

describe('GitBook exporter rules Folio reproduces on re-serialization', () => {
  it('an emphasis after `&#xNAN;` (an empty text leaf in GitBook) has its first character as a hex reference', () => {
    for (const text of ['# T\n\n> line\\\n> &#xNAN;_&#x42;itcoin transactions_\\\n> &#xNAN;_&#x74;ransactions._\n', '# T\n\nA\\\n&#xNAN;_&#x20;spaced_\n']) {
      expect(reserialize(text)).toBe(text);
    }
    // A later export of that literal text escapes the `&` and encodes nothing.
    const later = '# T\n\nA\\\n\\&#xNAN;_With a laugh, we always win._\n';
    expect(reserialize(later)).toBe(later);
    // The reference re-parses as the letter: the model is the same as without it.
    const doc = parsePageFile('# T\n\n&#xNAN;_&#x42;it_\n').document;
    expect(JSON.stringify(doc)).toContain('"value":"Bit"');
  });

  it('a `-` starting a line before a digit is escaped, in paragraphs and list items', () => {
    for (const text of ['# T\n\n\\-1 is returned if the name is unknown.\n', '# T\n\n* \\-10V supply\n* item\n', '# T\n\n-Dumb-easy api.\n']) {
      expect(reserialize(text)).toBe(text);
    }
    expect(reserialize('# T\n\n* a\n\n-1 is returned.\n')).toBe('# T\n\n* a\n\n\\-1 is returned.\n');
  });

  it('`>` in prose stays as written where the page writes it plain, even in a legacy page', () => {
    const text = '# T\n\nSee \\(a\\) and \\(b\\).\n\n3. Create new credential -> Fill in **API Key**\n\n';
    expect(reserialize(text)).toBe(text);
    const entity = '# T\n\nSee \\(a\\) and \\(b\\).\n\nIf a &gt; b then a &lt; c.\n\n';
    expect(reserialize(entity)).toBe(entity);
  });

  it('literal `**` glued to the word before and followed by a space stays escaped (it can only close)', () => {
    const style = legacyStyle();
    expect(relaxDelimiterEscapes('\\*\\*Embeddings\\*\\* can be connected under \\[\\*\\*Embeddings\\*\\* ]', style)).toBe(
      '\\*\\*Embeddings\\*\\* can be connected under \\[\\*\\*Embeddings\\*\\* ]',
    );
    // GitBook's broken strong around a space is still written unescaped.
    expect(relaxDelimiterEscapes('GIN\\*\\* \\*\\*可以支援', style)).toBe('GIN** **可以支援');
  });
});
