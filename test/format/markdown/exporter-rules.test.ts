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

describe('GitBook exporter syntax the tree does not keep, recorded in the model', () => {
  it('delimiters GitBook wrote as its own marks stay plain, its literal ones stay escaped (2021 broken emphasis)', () => {
    for (const text of [
      // Broken emphasis around words glued to the previous word; literal underscores escaped around code.
      '# T\n\nNote that weight labels apply to_positions_, not_lexemes_. If\\_`query`\\_is meaningful.\n\n',
      // An escaped `_` closing after a plain opener, and the reverse.
      '# T\n\nstored in the _`conn`\\_object, whether or not _`error`\\_ is `NULL`.\n\n',
      // Literal strong runs around no text stay escaped; plain `****` before a link stays plain.
      '# T\n\n_\\*\\*_默认情况下 `BackgroundWorker` \\*_`worker`_\\) X\\*@Y\n\n****[ALTER](https://x.org/a.html) — change\n\n',
      // An empty code mark written as two backticks; `[` left over from a code mark broken by a blank line.
      '# T\n\n| a | b |\n| :--- | :--- |\n| ``[`pg_authid`](pg\\_authid.md).oid | x |\n\nid_in: [String]\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
    // Without a record (a page built from a model) literal delimiters are escaped.
    const page = parsePageFile('# T\n\nv_something and v_ 開頭\n');
    expect(reserialize('# T\n\nv_something and v_ 開頭\n')).toBe('# T\n\nv_something and v_ 開頭\n');
    const walk = (n: { type: string; data?: unknown; children?: unknown[] }): void => {
      delete n.data;
      for (const c of (n.children ?? []) as Array<typeof n>) walk(c);
    };
    walk(page.document as never);
    expect(serializePageFile(page)).toBe('# T\n\nv\\_something and v\\_ 開頭\n');
  });

  it('a recorded plain delimiter that would change the tree is escaped again', () => {
    const page = parsePageFile('# T\n\n\\*a\\* and b\\_c\n');
    const text = page.document.children[0] as { children: Array<{ data?: Record<string, unknown> }> };
    text.children[0]!.data = { plainDelimiters: [0, 1] };
    expect(serializePageFile(page)).toBe('# T\n\n\\*a\\* and b\\_c\n');
  });

  it('carriage returns in a file of line feeds are kept where they were', () => {
    for (const text of [
      '# T\n\n### Unlimited Access\n\n\rThe Dedicated Node.\n\r\n\n### Next\n',
      '# T\n\n* Node Type: full nodes.\r\n* Region: two zones.\n* Client.\n',
      '# T\n\nlast line without newline\r',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });

  it('a list item starting with a list has its marker alone on the line', () => {
    const text = '# T\n\n*\n  * \\* / <> = \\~ ! @\n* next\n';
    expect(reserialize(text)).toBe(text);
  });

  it('parentheses inside `<…>` destinations stay plain in a file that escapes them in raw destinations', () => {
    const text = '# T\n\n![](<../../.gitbook/assets/image (53).png>)\n\nTry [GraphiQL](https://hub.example.org/graphql?query=space\\(id\\)%20x)\n';
    expect(reserialize(text)).toBe(text);
  });

  it('`]` escapes inside link text are not evidence that prose escapes `]`', () => {
    const text = '# T\n\nSee \\(a\\) and the footnote [\\[7\\]](#ft7).\n\n| f | `text` \\[ _`timezone`_ `text` ] |\n| :--- | :--- |\n| a | b |\n\n';
    expect(reserialize(text)).toBe(text);
  });

  it('`>` in prose after inline content counts as plain text, not a blockquote marker', () => {
    const text = '# T\n\nSee \\(a\\).\n\nChange it under _Options_ > _Display Radix_.\n\n';
    expect(reserialize(text)).toBe(text);
  });

  it('unpadded table cells keep the spaces around their text', () => {
    const text =
      '# T\n\n| **Error code** | **Error information** |\n| :--- | :--- |\n| **`wrong signed message`** | Message did dont have his local clock sync.  |\n| a |  b |\n';
    expect(reserialize(text)).toBe(text);
  });

  it('code blocks keep an indented form and a fence shorter than the default', () => {
    for (const text of [
      '# T\n\n2. Delete settings.xml\n\n    3. Open the software  \n    4. Collect the output.\n',
      '# T\n\n```python\n"""Script.\n```bash\npip install x\n```\n\nAfter.\n',
      '# T\n\n```js\na\n```\n\n~~~\nb\n~~~\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
    // A recorded fence that a line of an edited value would close is not used.
    const page = parsePageFile('# T\n\n```\n```bash\n```\n');
    (page.document.children[0] as { value: string }).value = '```\nx';
    expect(serializePageFile(page)).toBe('# T\n\n````\n```\nx\n````\n');
  });

  it('list items keep the indentation of their later blocks (2018 exporter: narrow marker, four-space blocks)', () => {
    const text = '# T\n\n* MSPS \n\n    or MS/s\n\n    megasamples per second\n\n* kSPS\n\n    or kS/s\n';
    expect(reserialize(text)).toBe(text);
  });

  it('a top-level list written indented keeps its indentation', () => {
    const text = '# T\n\n6. *Stop:* end of the transaction\n  - Next State: return to Idle\n  - Done\n';
    expect(reserialize(text)).toBe(text);
  });

  it('a `-` starting a line before `>` is escaped (`\\->` arrows in prose, list items and quotes)', () => {
    const text =
      '# T\n\n\\-> 함수 호출에는 비용이 들어간다!\n\n1. 변수들을 스택에 PUSH\n\n  \\-> 속도가 더 빨라질 수 있다.\n\n> * 실행 사이클 : CPU 로 가져온 명령어를 실행하는 사이클 \\\n>   \\-> 제어장치가 명령어 레지스터에 담긴 값을 해석하고&#x20;\n';
    expect(reserialize(text)).toBe(text);
  });

  it('a page that writes `->` plain at a line start keeps it plain (later exports of the same repository)', () => {
    const text =
      '# T\n\n~~2026.08.26 deprecated 예정~~\\\n-> Response API 에서 해당 기능 지원\n\n* ex, 음료 1개 추가 테스트 \\\n  -> 음료를 1개 추가할 수 있다.&#x20;\n';
    expect(reserialize(text)).toBe(text);
  });

  it('bold directly around bold is written as runs of `**` (`****[**x**](u)****`), never switching to `__`', () => {
    const text =
      '# T\n\n| Setting                               | Description                                               |\n| ------------------------------------- | --------------------------------------------------------- |\n| [**Members**](members.md)             | Manage invitations and member roles for your organization |\n| ****[**Teams**](team-settings.md)**** | Manage teams, sub-teams, and team membership              |\n\n****[**Details**](details.md)**** and **bold **inside** bold**\n';
    expect(reserialize(text)).toBe(text);
  });

  it('text inside `<mark>` is escaped as prose (a mark is formatting, not HTML content)', () => {
    const text = '# T\n\n> <mark style="color:purple;">deposit\\_params / tally\\_params - we see the following</mark>\n';
    expect(reserialize(text)).toBe(text);
  });

  it('a centred legacy table keeps its `:---:` delimiter row', () => {
    const text = '# T\n\nThe `TYPE` prefix could be:\n\n| prefix | plugin type |\n| :---: | :---: |\n| `in` | input |\n| `out` | output |\n\nSee \\(a\\).\n\n';
    expect(reserialize(text)).toBe(text);
  });

  it('spaces at the start or end of a padded table cell are kept and counted in the column width', () => {
    for (const text of [
      '# T\n\n| Parameter       | Value   | Comment     |\n| --------------- | ------- | ----------- |\n| UXRCE\\_DDS\\_CFG | 102     |  TELEM 2    |\n',
      '# T\n\n| Payment Type         | Valid Origin Types                                                                 | Valid Destination Types |\n| -------------------- | ---------------------------------------------------------------------------------- | ----------------------- |\n| `REMITTANCE`         | `ACCOUNT`, `WALLET`, `PAYMENT_LINK`, `CARD`, `PAYMENT_INITIATION`, `BANK_ACCOUNT`  | `BANK_ACCOUNT`          |\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });

  it('a blockquote keeps the empty `>` lines that end it', () => {
    const text =
      '# T\n\n> Lazy Loading 은 성능 향상을 위한 최적화&#x20;\n>\n> * lazy loading 이 적용된 코드는\n> * Lazy Loading 과 N+1 문제는 필연적이다!&#x20;\n>\n>\n\n```python\nx = 1\n```\n';
    expect(reserialize(text)).toBe(text);
  });

  it('an empty footnote definition keeps the space after its label', () => {
    const text = '# T\n\n익명 클래스는 단 한번만[^1]\n\n[^1]: \n';
    expect(reserialize(text)).toBe(text);
  });

  it('lines after a hard break in a numbered item keep the 2021 exporter four-space indent', () => {
    const text =
      '# T\n\n1. Select the project you wish to add new environments to in the Project selector. \\\n    ![](../../.gitbook/assets/project_selector.png) \n2. In the sidebar, click **Project Settings**. \n';
    expect(reserialize(text)).toBe(text);
  });

  it('spaces GitBook wrote at the start of a line after a hard break are kept, per break (paragraphs and mixed items)', () => {
    for (const text of [
      "# T\n\nSelect the Sleuth project you'd like to measure error impact on. \\\n ![](../../../.gitbook/assets/honeybadger-enabled.png) \n",
      '# T\n\n5. Select one of the following options:\\\n    ![](../../.gitbook/assets/env-info-editing.png) \\\n   **Edit**_:_ Change the environment name. \\\n   **Delete**: Removes the selected environment.\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });

  it('image alt text HTML-encoded by the exporter keeps `&amp;`', () => {
    const text = '# T\n\n![Build &amp; Deploy Home](../.gitbook/assets/main.png)\n\n![Pick](a.png)\n';
    expect(reserialize(text)).toBe(text);
  });

  it('`_` in image alt text is escaped like prose, in every era (aviator 2022, kbase 2021 legacy, pyrhos 2026)', () => {
    for (const text of [
      '# T\n\n![Workflow with batch\\_size=1.](<../../../.gitbook/assets/Screen Shot 2022-04-01 at 11.23.26 AM.png>)\n',
      '# T\n\n* **Developer** — Displays apps alphabetically.\\\n  ![apps\\_organized\\_by\\_input\\_type](../../.gitbook/assets/apps\\_organized\\_by\\_input\\_type-300x230.png)\n* **Input Types**\n\nSee \\(a\\).\n\n',
      '# T\n\n![La entrada incluye SECURE\\_FILE\\_PRIV, 3 y 4](../../.gitbook/assets/secure_file_priv.jpg)\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });

  it('text inside `<kbd>` is escaped as prose (a keyboard mark, like `<mark>`)', () => {
    const text = '# T\n\nCuando termine, tendremos un archivo llamado <kbd>aquatone\\_report.html</kbd> donde podemos ver capturas.\n';
    expect(reserialize(text)).toBe(text);
  });
  it('an item starting with a list keeps that list on its marker line where the 2020 exporter wrote it so', () => {
    for (const text of [
      '# T\n\nwith query params \\(all optional\\):\n\n* - style: "light" or "dark". Sets the icon colors.\n* - color: in RRBBGG or AARRBBGG format.\n\n',
      '# T\n\n5. Purchase is verified and fulfilled\n\n1. 1. If using server-side verification, app posts receipt to your site.\n   2. If using client-side verification, purchase data is available via javascript.\n\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });
  it('a hard break after text ending in a space keeps its three trailing spaces (2020 exporter)', () => {
    const text =
      '# T\n\nPlease make sure to URL-encode the URL you use   \n`https://example.com` -&gt; `encodeURIComponent(https://example.com)`\n\nSee \\(a\\).\n\n';
    expect(reserialize(text)).toBe(text);
  });
  it('a heading keeps the spaces GitBook wrote between its `#` marks and its text', () => {
    const text = '# T\n\n####  `too many contigs` \n\nUE: RAST has a limit of 10,000 contigs. Prokka has a limit of 30,000 contigs.\n';
    expect(reserialize(text)).toBe(text);
  });
  it('an empty fenced code block keeps the one empty line GitBook wrote inside, and none where it wrote none', () => {
    for (const text of [
      '# T\n\n{% tabs %}\n{% tab title="Browser" %}\n\n```\n\n```\n\n{% endtab %}\n{% endtabs %}\n',
      '# T\n\n```bash\n```\n\nCheck validator private key is correct\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });
  it('an end tag GitBook wrote indented after the last list item closes the block around the list (no false warning)', () => {
    const text =
      '# T\n\n{% update date="2026-05-11" %}\n## 2026.05.11-1-rc1\n\n**Releases**\n\n* Faster sync for non-released PRs\n  {% endupdate %}\n\n{% update date="2026-05-05" %}\n## 2026.05.05\n{% endupdate %}\n';
    const page = parsePageFile(text);
    expect(page.warnings).toEqual([]);
    expect(page.document.children.map((c) => c.type)).toEqual(['liquidBlock', 'liquidBlock']);
    expect(reserialize(text)).toBe(text);
  });
  it('`=` starting a line is written plain where the page writes it so (2020 exporter), escaped where it escapes it (2021 on)', () => {
    for (const text of [
      // KonduitAI 2020: a paragraph starting with `=`; Incheol-Jung 2020: a list item starting with `==`.
      '# T\n\nExample: if input has shape \\[mb, 8, 2, 2\\]\n\n= \\[mb, 2, 4, 4\\]\n\n',
      '# T\n\n* == 연산자를 사용해 입력이 자기 자신의 참조 인지 확인한다.\n* instanceof 연산자로 입력이 올바른 타입인지 확인한다.\n\n',
      // Incheol-Jung 2023 and pgsql-tw 2021 escape it.
      '# T\n\n* \\== 연산자를 사용해 입력이 자기 자신의 참조 인지 확인한다.\n',
      '# T\n\n\\= 和 <> 比較的工作方式與其他比較略有不同。\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
    // A line of `=` alone after a paragraph line would be a heading underline: escaped whatever the page does.
    const page = parsePageFile('# T\n\n= \\[mb\\]\n\nline\n');
    page.document.children.push({ type: 'paragraph', children: [{ type: 'text', value: 'a\n==' }] });
    expect(serializePageFile(page)).toContain('a\n\\==');
  });

  it('non-ASCII letters and U+200B in image alt text are hex character references where the 2020 exporter wrote them so', () => {
    for (const text of [
      '# T\n\n![AOP &#xC801;&#xC6A9; &#xBC29;&#xC2DD;](../../.gitbook/assets/321.png)\n\n',
      '# T\n\nSee \\(a\\).\n\n![&#xC624;&#xBE0C;&#xC81D;&#xD2B8;\\(&#xC870;&#xC601;&#xD638;&#xB2D8;\\) &#xBC1C;&#xCDCC;](../../.gitbook/assets/class_explosion.jpg)\n\n',
      '# T\n\n![ &#x200B;http://developer.gaeasoft.co.kr/development-guide/knowledge/apm/pinpoint/pinpoint-practice/&#x200B;](../../.gitbook/assets/unnamed.png)\n\n',
      // Later exporters write the letters themselves.
      '# T\n\n![오브젝트 발췌](../../.gitbook/assets/class_explosion.jpg)\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });

  it('`~` and `{{ }}` in image alt text stay plain where the exporter wrote them plain (2020 alt text)', () => {
    for (const text of [
      '# T\n\n![https://pengsuu.tistory.com/category/%EC%9B%80%EC%A7%A4%20%7C%20%EC%97%90%ED%94%BC%EC%86%8C%EB%93%9C%2001~05](../../.gitbook/assets/111%20%281%29.gif)\n\n',
      '# T\n\n![ &#x200B;https://co.pinterest.com/pin/588423507550449446/?amp\\_client\\_id=CLIENT\\_ID\\(\\_\\)&amp;mweb\\_unauth\\_id={{default.session}}&amp;from\\_amp\\_pin\\_page=true](../../.gitbook/assets/9-2.jpg)\n\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });
  it('a link GitBook wrote as an autolink `<https://…>` stays one (sunriselayer 2025, table cells counted at its width)', () => {
    const text =
      '# T\n\n| Detail | Value                                     |\n| ------ | ----------------------------------------- |\n| RPC    | <https://sunrise-dawn-1.cauchye.com>      |\n| REST   | <https://sunrise-dawn-1.cauchye.com:1318> |\n';
    expect(reserialize(text)).toBe(text);
    // A link written with brackets keeps them.
    const bracket = '# T\n\nSee [https://ununifi.io](https://ununifi.io).\n';
    expect(reserialize(bracket)).toBe(bracket);
  });
  it('blank lines before the first line and spaces after the last line break are kept (GeniusVentures 2025)', () => {
    for (const text of [
      "\n# Overview of Cross-Chain Bridging Flow\n\nWe'll start with the **Message Creation and Leader Election** process and build upon that progressively.\n    ",
      '\n# Message Creation\n\n```cpp\nstruct Message {};\n```\n    ',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });
  it('a blank line holding a space before an HTML block is kept (Incheol-Jung 2023)', () => {
    const text =
      '# T\n\n<img src="https://s3-us-west-2.amazonaws.com/secure.notion-static.com/adc88591.png">\n\n \n\n<figure><img src="../../.gitbook/assets/2 (1) (2).png" alt=""><figcaption><p>git</p></figcaption></figure>\n';
    expect(reserialize(text)).toBe(text);
  });
  it('text inside inline HTML keeps the backslashes GitBook wrote there as HTML content (BeamMW 2023 table cell)', () => {
    const text =
      '# T\n\n| FILE     | LOCATION                                                                                                                                          |\n| -------- | ------------------------------------------------------------------------------------------------------------------------------------------------- |\n| Logs     | \\Users{your User name}\\AppData\\Local\\Beam Wallet\\logs                                                                                             |\n| Database | <p>\\Users\\{your User name}\\AppData\\Local\\Beam Wallet\\&#x3C;version>\\wallet.db</p><p>\\Users\\{your User name}\\AppData\\Local\\Beam Wallet\\node.db</p> |\n';
    expect(reserialize(text)).toBe(text);
  });
  it('a list after a list written with the other bullet keeps its own bullet (KonduitAI 2020: `-` list, then `*` list)', () => {
    const text =
      '# T\n\n* param poolingType Pooling type for global pooling\n\n**collapseDimensions**\n\nIf false:  \n- 3d \\(time series\\) input with shape \\[miniBatchSize, vectorSize, timeSeriesLength\\]\n- 4d \\(CNN\\) input with shape \\[miniBatchSize, channels, height, width\\]\n\n\n* param collapseDimensions Whether to collapse the dimensions or not\n\n';
    expect(reserialize(text)).toBe(text);
  });

  it('`--` starting a line before text is written plain where the page writes it so (KonduitAI 2020)', () => {
    const text =
      '# T\n\n* [Facebook Offers Artificial Intelligence Tech to Open Source Group](http://bits.blogs.nytimes.com/2015/01/16/facebook-offers-artificial-intelligence-tech-to-open-source-group/)\n\n  --A smart recruiting play by Facebook.\n\n';
    expect(reserialize(text)).toBe(text);
    // Where it would make a thematic break or a heading underline, it stays escaped.
    const page = parsePageFile(text);
    page.document.children.push({ type: 'paragraph', children: [{ type: 'text', value: 'a\n--' }] });
    expect(serializePageFile(page)).toContain('a\n\\--');
    // `\\-` before a digit stays escaped in such a page.
    const digit = parsePageFile(text);
    digit.document.children.push({ type: 'paragraph', children: [{ type: 'text', value: 'a\n-1 is returned' }] });
    expect(serializePageFile(digit)).toContain('a\n\\-1 is returned');
  });
  it('a legacy table inside a quote or a list item keeps its `:---` delimiter row and its empty cells (KonduitAI 2020, Adobe 2021)', () => {
    for (const text of [
      '# T\n\nKeys in the map are the regular expressions. For example:\n\n> | Original | Regex | Replacement | Result |\n> | :--- | :--- | :--- | :--- |\n> | Data\\_Vec | \\_ |  | DataVec |\n\n* param columnName Name of the column\n',
      '# T\n\n1. In the browser, navigate to X.\n2. Update the schema.\n   * Select the plus icon `+` next to the schema name.\n\n     | Field name | Display name | Type | Required |\n     | :--- | :--- | :--- | :--- |\n     | ratingSource | Rating Source | String | No |\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });
  it('`#` escaped in prose counts where a text starts (link text `[\\#1450]`, AxonIQ 2020), not only inside a text', () => {
    const text =
      '# T\n\n* The `TrackingEventProcessor#mergeSegment(int)` method was invoked with the high segment number of the pair to merge,\n\n  an error would occur in the process.\n\n  This was resolved in pull request [\\#1450](https://github.com/AxonFramework/AxonFramework/pull/1450).\n';
    expect(reserialize(text)).toBe(text);
    // A `#` at a line start is escaped whatever the page does (it would start a heading).
    const page = parsePageFile('# T\n\nsee [#1](https://x.org/1)\n');
    expect(reserialize('# T\n\nsee [#1](https://x.org/1)\n')).toBe('# T\n\nsee [#1](https://x.org/1)\n');
    expect(page.style.escapeHash).toBe(false);
  });

  it('`=` alone as the first line of a paragraph stays plain where the page writes `=` plain (AxonIQ 2020 list of operators)', () => {
    const text = '# T\n\nBasic operators:\n\n* =\n* &gt;\n* \\&lt;\n* != or &lt;&gt;\n* in\n\nSee \\(a\\).\n\n';
    expect(reserialize(text)).toBe(text);
    // After a paragraph line it would underline a heading: escaped.
    const page = parsePageFile(text);
    page.document.children.push({ type: 'paragraph', children: [{ type: 'text', value: 'a\n=' }] });
    expect(serializePageFile(page)).toContain('a\n\\=');
  });

  it('`"` in image alt text is `&quot;` where the exporter HTML-encoded the caption (AxonIQ 2020)', () => {
    const text =
      "# T\n\n> Some listeners don't care about the intent \\(e.g. database updating event listeners\\).\n>\n> ![ &quot;Adding intent to events](https://github.com/x/y/.gitbook/assets/state-change-intent.png)\n\n";
    expect(reserialize(text)).toBe(text);
  });
  it('a hard break of more than two spaces keeps its count inside link text too (Adobe 2021)', () => {
    const text =
      '# T\n\n**Important:** You need to add this code only in your main Activity and any other Activity in which your app may be launched.[    \n](https://launch.gitbook.io/marketing-mobile-sdk-v5-by-adobe-documentation/lifecycle)\n\n';
    expect(reserialize(text)).toBe(text);
  });

  it('a paragraph GitBook wrote 1–3 spaces right of its container keeps them in Liquid blocks and list items, as at the top level (2020 exporter)', () => {
    for (const text of [
      // 2hu2huxia 2020: a paragraph of a hint starting with a space.
      '# T\n\n{% hint style="info" %}\n**s/MIME**\n\ns/MIME 是一种基于公钥基础设施的安全交换电子邮件的标准。\n\n 对于签名，则执行相反的过程。 \n\n现在这个方案过于简化。\n{% endhint %}\n',
      // KonduitAI 2020: a paragraph of a list item written one column right of the item's text.
      '# T\n\n* **LSTMDataFormat** \\(ENUM\\) - for unidirectional:  TNS: shape \\[timeLength, numExamples, inOutSize\\]  \n\n  NTS: shape \\[numExamples, timeLength, inOutSize\\] - TF "time\\_major=false" layout  \n   for bidirectional:\n\n   T2NS: 3 = \\[timeLength, 2, numExamples, inOutSize\\] \\(for ONNX\\)\n\n* **LSTMDirectionMode** \\(ENUM\\) - direction\n\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
  });
  it('lines holding only spaces before the newlines ending the file are kept (BugSplat 2024)', () => {
    const text =
      '# T\n\n7. BugSplat is a [bootstrapped company](who-is-bugsplat/) that answers only to our customers.\n8. Every new account signing up for BugSplat helps us [plant more trees](who-is-bugsplat/), One Tree Planted. \n\n \n\n\n\n';
    expect(reserialize(text)).toBe(text);
  });
  it('punctuation GitBook wrote escaped where Folio writes it plain keeps its backslash (a record, like plain delimiters)', () => {
    for (const text of [
      // KonduitAI 2020: a regular expression's `\.` passed through, `\d` left plain, in the same line.
      '# T\n\nExample: Data in format “2016-01-01 23:59:59.001 1 DEBUG First entry message!”  \nusing regex String “\\(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\) \\(\\d+\\) \\(\\[A-Z\\]+\\) \\(.\\)”  \nwould be split into 4 Text writables\n\n',
      // KonduitAI 2020: `sum\_i` in a page that writes other intra-word `_` plain; an escaped backslash in a quoted table.
      '# T\n\nNorm1 \\(L1 norm\\) reduction operation, see `x_i`: step_size, batch_size\n\nout = sum\\_i abs\\(x\\[i\\]\\)\n\n> | Original | Regex |\n> | :--- | :--- |\n> | B1C2T3 | \\\\d |\n\n',
      // AxonIQ 2020: a list of operators with `\/` escaped.
      '# T\n\nIn expressions you can use basic arithmetic operators:\n\n* +\n* \\*\n* \\/\n* %\n\nSee \\(a\\).\n\n',
      // Beefree 2025: `file\_type\*` escaped in a table of a page writing `page_size` plain.
      '# T\n\nSet page_size and page_orientation.\n\n| Name         | Type   |\n| ------------ | ------ |\n| html\\*       | String |\n| file\\_type\\* | String |\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
    // An edited text is written with the default escapes.
    const page = parsePageFile('# T\n\nout = sum\\_i, step\n\nbatch_size and step_size\n');
    expect(serializePageFile(page)).toBe('# T\n\nout = sum\\_i, step\n\nbatch_size and step_size\n');
    (page.document.children[0] as { children: Array<{ value: string }> }).children[0]!.value = 'out = sum_j, step';
    expect(serializePageFile(page)).toBe('# T\n\nout = sum_j, step\n\nbatch_size and step_size\n');
  });
  it('`(` after `]`, `}}` with no `{{` and a `]` the page otherwise escapes stay plain where GitBook wrote them plain (a record; 2hu2huxia 2020)', () => {
    const text =
      '# T\n\n该电子邮件将邀请用户单击下载文件的链接，因有{}{.URL}}变量，GoPhish将自动化填写该链接。\n\n但当向该邮箱发送邮件后，\\[13\\]我们\n\n我们在\\[[http://www.noip.com/](http://www.noip.com/)\\] 为Front Gun服务器注册了一个免费的DNS名称。\n\n按照此博客文章\\[[http://www.powershellempire.com/?page\\_id=110\\](http://www.powershellempire.com/?page_id=110%29]%20下载并安装Empire%20PS（%20基本上复制Git存储库并启动%20install.%20sh%20\\)\n';
    expect(reserialize(text)).toBe(text);
    // A text built from a model (no record) keeps the escapes that keep a link from forming.
    const page = parsePageFile('# T\n\nsee [a](b) here\n');
    page.document.children.push({ type: 'paragraph', children: [{ type: 'text', value: '[a](b)' }] });
    expect(serializePageFile(page)).toBe('# T\n\nsee [a](b) here\n\n\\[a]\\(b)\n');
  });
  it('`1\\)` starting a line is the escape that keeps a list from forming, not evidence that the page escapes parentheses (Felienne 2019–2021)', () => {
    const text =
      '# Les 2b\n\n**Opdracht 4) Atletiekformules (X)**\n\n1\\) Hoeveel kinderen zijn er gekwalificeerd?\n\n2\\) Wat is het gemiddelde aantal seconde?\n\n3\\) Hoeveel kinderen doen er minder dan 50 minuten over?\n\n4\\) Wat is de gemiddelde afstand?\n';
    expect(reserialize(text)).toBe(text);
    expect(parsePageFile(text).style.escapeParens).toBe(false);
    // Escaped parentheses mid-line still count.
    const legacy = '# T\n\n1\\) See \\(a\\), \\(b\\) or (c).\n\n';
    expect(parsePageFile(legacy).style.escapeParens).toBe(true);
  });
  it('a link around an image keeps its bare destination although the image’s is in `<…>` (i18next 2022)', () => {
    const text =
      '# T\n\n[![](<.gitbook/assets/title width.jpg>)](https://locize.com/blog/react-i18next/)\n\nRead more about this topic, [here](https://locize.com/blog/i18n-serverless/).[<br>](https://locize.com/blog/x/)[![](<../.gitbook/assets/title (1).jpg>)](https://locize.com/blog/i18n-serverless/)\n';
    expect(reserialize(text)).toBe(text);
  });
  it('blank lines holding spaces are kept in a hint, between list items and between an item’s blocks (ZupIT 2020, dify 2024)', () => {
    for (const text of [
      '# T\n\n{% hint style="warning" %}\n**Cygwin Configurations :**  \n  \n- You need to install the **make** package inside Cygwin.\n  \n- You\'ll also have to configure the file **/etc/nsswitch.conf**.\n{% endhint %}\n\n',
      '# T\n\n- **关键词值 1**\n  \n  仅启用关键词检索模式。\n\n- **自定义关键词和语义权重**\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
    // The mark never reaches the output, and a whitespace line at the top level is written as before.
    const top = '# T\n\npara\n  \nnext\n';
    expect(reserialize(top)).toBe(top);
  });
  it('a list starting a Liquid block keeps the file’s bullet after a list just before the block (istex 2023)', () => {
    const text =
      '# T\n\n* PPN : identifiant pérenne de la notice de la revue\n* exporter, de nombreux formats disponibles\n\n{% hint style="info" %}\n* La liste des titres dans _Revue de sommaire Istex_ correspond à la liste contractuelle\n* La couverture affichée pour une ressource\n{% endhint %}\n';
    expect(reserialize(text)).toBe(text);
    // Two lists side by side still switch bullets (else they would read as one).
    const page = parsePageFile('# T\n\n* a\n\n- b\n');
    expect(serializePageFile(page)).toBe('# T\n\n* a\n\n- b\n');
  });
  it('a space GitBook wrote `&#x20;` between delimiter runs stays a reference (Jarrettgohxz 2024)', () => {
    const text = '# T\n\n_**The****&#x20;****`ffuf`****&#x20;****tool can be used to enumerate the directories too:**_\n';
    expect(reserialize(text)).toBe(text);
    // An edited text is written with the serializer's own choices.
    const page = parsePageFile('# T\n\na&#x20;**b**\n');
    expect(serializePageFile(page)).toBe('# T\n\na&#x20;**b**\n');
    (page.document.children[0] as { children: Array<{ value: string }> }).children[0]!.value = 'c ';
    expect(serializePageFile(page)).toBe('# T\n\nc **b**\n');
  });
  it('a bare destination written with character references keeps them while its URL is unchanged (jonasjohansson 2021)', () => {
    const text =
      '# T\n\n* 1x [E27 power base](https://www.clasohlson.com/se/Lamph&aring;llare-med-tygkl&auml;dd-sladd-Northlight/p/36-6234)\n* 1x [cable](https://x.org/a)\n';
    expect(reserialize(text)).toBe(text);
    // An edited URL is written as the serializer writes it.
    const page = parsePageFile(text);
    const link = (page.document.children[0] as never as { children: Array<{ children: Array<{ children: Array<{ url: string }> }> }> }).children[0]!
      .children[0]!.children[1]!;
    link.url = 'https://www.clasohlson.com/se/Lampå';
    expect(serializePageFile(page)).toContain('](https://www.clasohlson.com/se/Lampå)');
  });
  it('`-` and `+` starting a line before a letter or digit keep the backslash GitBook wrote (Onurbolatogluu, asserts, DevinNorgarb 2021–2023)', () => {
    for (const text of [
      '# T\n\n* \\-K, --ask-become-pass : Hangi kullanıcı ile işlem yapılacaksa kullanılır.\n* \\-T : Timeout değerini vermek için kullanılır.\n',
      '# T\n\n> docker run -d\\\n> \\-p 9104:9104\\\n> \\--network my-mysql-network\\\n> \\-e DATA\\_SOURCE\\_NAME="user:password@(hostname:3306)/"\\\n> prom/mysqld-exporter\n',
      '# T\n\n\\-000000\\\n\\+301\\\n\\+308\n\nEntering -000000 turns off all packets.\n',
      '# T\n\n\\-İşlemler manuel ve zahmetli\\\n\\-Singleton podların fail durumunu kontrol eden bir mekanizma yok.\n',
    ]) {
      expect(reserialize(text)).toBe(text);
    }
    // Written plain, it stays plain; a text built from a model is written with the defaults.
    expect(reserialize('# T\n\n-Dumb-easy api.\n')).toBe('# T\n\n-Dumb-easy api.\n');
    const page = parsePageFile('# T\n\n\\-a BSSID: la dirección MAC\n');
    (page.document.children[0] as { children: Array<{ value: string }> }).children[0]!.value = '-b BSSID';
    expect(serializePageFile(page)).toBe('# T\n\n-b BSSID\n');
  });

  it('`&#xNAN;` before an emphasis stays plain in a page that escapes `&` elsewhere (DevinNorgarb 2022: `C\\&C`)', () => {
    const text =
      '# T\n\nThe second port was used for command and control (C\\&C).\n\n![](https://argus-sec.com/figure1-300x150.jpg)\\\n&#xNAN;_&#x46;igure 1: The network setup: The hacker uses the compromised ECU._\n';
    expect(reserialize(text)).toBe(text);
    // The later export of that literal text still escapes its `&`.
    const later = '# T\n\nC\\&C port.\n\nA\\\n\\&#xNAN;_With a laugh, we always win._\n';
    expect(reserialize(later)).toBe(later);
  });

  it('`&#xNAN;` is not counted as an `&` the page writes plain (yanisAlb00 2024: one `\\&`, two `&#xNAN;`)', () => {
    const counted = '# T\n\nxfreerdp /u:"cybervaca" /p:"\\&aue%C)}6g-d{w"\n\n&#xNAN;_**/ , / ( ) // /**_\n\n&#xNAN;_**/ / /**_\n';
    expect(reserialize(counted)).toBe(counted);
  });

  it('a number and `.` starting a line after a hard break stay plain where GitBook wrote them so (seicoll 2020: not a list, it cannot interrupt a paragraph)', () => {
    const text =
      '# T\n\nUneix el client Windows al domini creat. 1. Primer de tot comprovarem la connectivitat.  \n2. Si el ping funciona, anirem a “Mi PC”. 3. Ens demanarà el compte d’_**Administrador**_.  \n4. Reiniciem la màquina.\n';
    expect(reserialize(text)).toBe(text);
    // A `1.` there would start a list: it stays escaped.
    const one = '# T\n\nText.\\\n1\\. Not a list.\n';
    expect(reserialize(one)).toBe(one);
  });

  it('`=` after a task item’s checkbox starts its line: plain where the page writes `=` plain (winf-hsos 2020, a file ending in a blank line)', () => {
    const text =
      '# T\n\n## \\#2 - Which operator do we use to assign a value to a variable?\n\n* [ ] !=\n* [ ] =&gt;\n* [ ] =\n* [ ] ==\n* [ ] none of the above\n\n';
    expect(reserialize(text)).toBe(text);
  });

  it('a thematic break keeps the spaces GitBook wrote before it (tin-cat 2020: ` ****`, an empty bold after a space)', () => {
    const text = '# T\n\n* **`TEMPERATURE_UNITS_CELSIUS`**\n\n ****\n\n* **`CURRENCY_USD`**\n';
    expect(reserialize(text)).toBe(text);
  });

  it('a code block in a table cell keeps its line breaks inside the row, padded as one string (asserts 2023)', () => {
    const text =
      '# T\n\n| Metric                                                                                               | Key Performance Indicator                                                                                                                             |\n| ---------------------------------------------------------------------------------------------------- | ----------------------------------------------------------------------------------------------------------------------------------------------------- |\n| <pre><code>mongodb_op_counters_total\n</code></pre>                                                   | <p>Request Rate</p><p><code>rate(mongodb_op_counters_total[5m])</code></p>                                                                            |\n| <p></p><pre><code>mongodb_op_counters_repl_total\nmongodb_mongod_op_counters_repl_total\n</code></pre> | <p>Request Rate </p><p><code>rate(...[5m])</code></p>                                                                                                 |\n| <p></p><pre><code>mongodb_mongod_op_latencies_ops/latencies_total\n</code></pre>                      | <p>Latency Average </p><pre><code>rate(mongodb_mongod_op_latencies_latency_total[5m])\n/\nrate(mongodb_mongod_op_latencies_ops_total[5m])\n</code></pre> |\n\n## Next\n';
    expect(reserialize(text)).toBe(text);
    // The model holds one row per GitBook row, its code with the line breaks.
    const table = parsePageFile(text).document.children[0] as never as { children: Array<{ children: Array<{ children: Array<{ value: string }> }> }> };
    expect(table.children).toHaveLength(4);
    expect(table.children[2]!.children[0]!.children.at(-1)!.value).toBe(
      '<pre><code>mongodb_op_counters_repl_total\nmongodb_mongod_op_counters_repl_total\n</code></pre>',
    );
  });

  it('a code line ending `\\r\\r\\n` in a file of `\\n` keeps both endings (farukerdem34 2023: a pasted HTTP request)', () => {
    const text =
      '# T\n\n{% code overflow="wrap" %}\n```http\nGET /admin HTTP/1.1\r\nConnection: close\r\nUpgrade-Insecure-Requests: 1\r\r\n```\n{% endcode %}\n\nNext.\n';
    expect(reserialize(text)).toBe(text);
  });

  it('a list item written right of its list’s marker column keeps that indentation (tin-cat 2020: items after ` **App modules**`)', () => {
    const text =
      '# T\n\n* \\*\\*\\*\\*[**Core modules**](../reference/core-modules/)\\*\\*\\*\\*\n  * Ready-made modules provided by Cherrycake.\n  * Cherrycake comes with a bunch of [Core modules](../reference/core-modules/).\n*  **App modules**\n  * Modules created by the developer when creating a new application.\n  * A really simple example of an App module would be the `HelloWorld` module.\n\n## Loading modules\n';
    expect(reserialize(text)).toBe(text);
  });
});
