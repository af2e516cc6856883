import type { Root, Nodes, List } from 'mdast';
import type { Style } from '../types.js';
import { insideInlineHtml } from '../serialize/html-context.js';

/** The conventions GitBook's current exporter uses; the style of a new page. */
export function currentStyle(): Style {
  return {
    era: 'current',
    bullet: '*',
    bulletOther: '-',
    orderedDelimiter: '.',
    incrementListMarker: true,
    emphasis: '_',
    strong: '*',
    rule: '*',
    ruleRepetition: 3,
    ruleSpaces: false,
    fence: '`',
    hardBreak: 'backslash',
    tablePadding: true,
    tableDelimiterLegacy: false,
    escapeParens: false,
    escapeClosingBracket: false,
    escapePipe: false,
    escapeHash: false,
    escapeTilde: true,
    escapeArrow: true,
    escapeUnderscore: 'always',
    plainDelimitersRecorded: false,
    destinationEscapes: '',
    destinationAmpersand: 'escaped',
    escapeAmpersand: 'always',
    escapeTrailingBackslash: true,
    escapeLiquid: true,
    namedEntities: false,
    ltEntityAlways: false,
    gtEntity: false,
    altApos: false,
    altAmp: false,
    altQuot: false,
    altHex: false,
    altPlain: '',
    escapeEquals: true,
    escapeDashes: true,
    listItemIndent: 'mixed',
    trailingNewlines: 1,
    trailingSpaces: '',
    trailingBlankLines: '',
    leadingNewlines: 0,
    lineEnding: '\n',
    mixedLineEndings: null,
    bom: false,
    blankAfterFrontMatter: 1,
    blankAfterTitle: 1,
  };
}

/** Conventions of GitBook's 2018–2021 exporter. */
export function legacyStyle(): Style {
  return {
    ...currentStyle(),
    era: 'legacy',
    hardBreak: 'spaces',
    tablePadding: false,
    tableDelimiterLegacy: true,
    escapeAmpersand: 'reference',
    escapeTrailingBackslash: false,
    escapeParens: true,
    escapeClosingBracket: true,
    namedEntities: true,
    gtEntity: true,
    trailingNewlines: 2,
  };
}

type Counts<K extends string> = Partial<Record<K, number>>;
function bump<K extends string>(c: Counts<K>, k: K): void {
  c[k] = (c[k] ?? 0) + 1;
}
function top<K extends string>(c: Counts<K>, fallback: K): K {
  let best = fallback;
  let n = 0;
  for (const [k, v] of Object.entries(c) as Array<[K, number]>) {
    if (v > n) {
      best = k;
      n = v;
    }
  }
  return best;
}

/**
 * Detect the formatting conventions of `text` (already LF-normalized) from its syntax tree, by
 * looking at the source characters at node positions. Unknown aspects default to the era's style.
 */
export function detectStyle(text: string, tree: Root): Style {
  const ev = collectEvidence(text, tree);
  // Tables whose padding differs from the file's majority keep their own.
  const tablePaddingStyle = ev.tablePadded + ev.tableUnpadded === 0 ? null : ev.tablePadded >= ev.tableUnpadded;
  tidyTablePadding(tree, tablePaddingStyle);

  const base = detectEra(text, ev) === 'legacy' ? legacyStyle() : currentStyle();
  const style: Style = {
    ...base,
    ...markStyle(text, ev, base),
    ...tableStyle(ev, base),
    ...escapeStyle(ev, base),
  };
  style.bulletOther = style.bullet === '-' ? '*' : '-';
  applyRuleStyle(style, ev.rules);
  return style;
}

/** What the source shows of each convention: counts of each way a construct is written. */
function newEvidence() {
  return {
    bullets: {} as Counts<'*' | '-' | '+'>,
    emph: {} as Counts<'_' | '*'>,
    strong: {} as Counts<'*' | '_'>,
    breaks: {} as Counts<'backslash' | 'spaces'>,
    delims: {} as Counts<'.' | ')'>,
    rules: new Map<string, number>(),
    increment: 0,
    repeat: 0,
    tablePadded: 0,
    tableUnpadded: 0,
    tableLegacyDelim: 0,
    fences: {} as Counts<'`' | '~'>,
    esc: newEscapeCounts(),
    alt: { apos: 0, aposPlain: 0, amp: 0, ampPlain: 0, quot: 0, quotPlain: 0, hex: 0, hexPlain: 0, plain: {} as Counts<string>, escaped: {} as Counts<string> },
    destEsc: new Set<string>(),
    destAmp: { escaped: 0, plain: 0 },
    trailingBackslash: { escaped: 0, plain: 0 },
  };
}
type Evidence = ReturnType<typeof newEvidence>;

/** Walk the tree once, noting the evidence at each positioned node (tables are marked with their own padding). */
function collectEvidence(text: string, tree: Root): Evidence {
  const ev = newEvidence();
  const visit = (node: Nodes, parent: Nodes | null, inLabel: boolean): void => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && end !== undefined) noteNode(ev, text, node, parent, inLabel, start, end);
    // A link's text is a label: a `]` there is escaped whatever the file's prose does.
    const label = inLabel || node.type === 'link' || node.type === 'linkReference';
    if ('children' in node) for (const c of node.children as Nodes[]) visit(c, node, label);
  };
  visit(tree, null, false);
  return ev;
}

function noteNode(ev: Evidence, text: string, node: Nodes, parent: Nodes | null, inLabel: boolean, start: number, end: number): void {
  const src = text.slice(start, end);
  switch (node.type) {
    case 'list':
      noteList(ev, text, node, parent);
      break;
    case 'text':
      // Autolink text (`<http://…/~user>`) is written verbatim: no evidence about escaping.
      if (
        !insideInlineHtml(parent ?? undefined, node) &&
        !(parent?.type === 'link' && src === (parent as { url: string }).url.replace(/^mailto:/, '') && text[start - 1] === '<')
      )
        countEscapes(src, ev.esc, parent?.type === 'tableCell', inLabel, text.slice(text.lastIndexOf('\n', start - 1) + 1, start));
      break;
    case 'link':
    case 'image':
    case 'definition':
      noteDestination(ev, node.type === 'image', src);
      break;
    case 'paragraph': {
      const last = (node as { children: Nodes[] }).children.at(-1);
      if (last?.type === 'text' && last.value.endsWith('\\')) src.endsWith('\\\\') ? ev.trailingBackslash.escaped++ : ev.trailingBackslash.plain++;
      break;
    }
    case 'emphasis':
      bump(ev.emph, src[0] as '_' | '*');
      break;
    case 'strong':
      bump(ev.strong, src[0] as '_' | '*');
      break;
    case 'break':
      bump(ev.breaks, src.startsWith('\\') ? 'backslash' : 'spaces');
      break;
    case 'thematicBreak': {
      const k = src.trim();
      ev.rules.set(k, (ev.rules.get(k) ?? 0) + 1);
      break;
    }
    case 'code':
      if (/^\s*(~~~|```)/.test(src)) bump(ev.fences, src.trimStart()[0] as '`' | '~');
      break;
    case 'table':
      noteTable(ev, node, src);
      break;
  }
}

/** A list's marker (bullet or ordered delimiter) and whether its numbers increment. */
function noteList(ev: Evidence, text: string, list: List, parent: Nodes | null): void {
  const first = list.children[0];
  const m = first?.position ? /^[*+-]|^\d+([.)])/.exec(text.slice(first.position.start.offset!)) : null;
  if (m) {
    if (list.ordered) bump(ev.delims, m[1] as '.' | ')');
    else if (parent?.type !== 'listItem') bump(ev.bullets, m[0] as '*' | '-' | '+');
  }
  if (list.ordered && list.children.length > 1) {
    const second = list.children[1]!;
    const n = second.position ? /^(\d+)/.exec(text.slice(second.position.start.offset!)) : null;
    if (n) Number(n[1]) === (list.start ?? 1) ? ev.repeat++ : ev.increment++;
  }
}

/** The escapes in a link, image or definition destination, and an image's alt text. */
function noteDestination(ev: Evidence, image: boolean, src: string): void {
  if (image) {
    // Alt text is prose: its `|` escaping counts with the text's; `'` may be `&apos;`.
    const label = /^!\[([^]*)\]\(/.exec(src)?.[1] ?? '';
    for (const e of label.matchAll(/\\?\|/g)) e[0].length === 2 ? ev.esc.pipeEscaped++ : ev.esc.pipePlain++;
    ev.alt.apos += label.split('&apos;').length - 1;
    ev.alt.aposPlain += label.split("'").length - 1;
    ev.alt.amp += label.split('&amp;').length - 1;
    ev.alt.ampPlain += label.split(/&(?!#?\w+;)/).length - 1;
    ev.alt.quot += label.split('&quot;').length - 1;
    ev.alt.quotPlain += label.split('"').length - 1;
    // The 2020 exporter's captions: non-ASCII characters as hex references, `~` and `{}` plain.
    for (const e of label.matchAll(/&#x([0-9A-F]+);/g)) if (parseInt(e[1]!, 16) > 0x7f) ev.alt.hex++;
    ev.alt.hexPlain += label.replace(/[\0-\x7f]+/g, '').length;
    for (const e of label.matchAll(/(\\?)([~{}])/g)) bump(e[1] ? ev.alt.escaped : ev.alt.plain, e[2]!);
  }
  const m = /\]\(\s*(<[^>]*>|[^\s)]+(?:\([^\s)]*\)[^\s)]*)*)/.exec(src) ?? /\]:\s*(\S+)/.exec(src);
  if (m) {
    for (const e of m[1]!.matchAll(/\\([!-/:-@[-`{-~])/g)) if (e[1] !== '&') ev.destEsc.add(e[1]!);
    for (const e of m[1]!.matchAll(/(\\?)&[#A-Za-z]/g)) e[1] ? ev.destAmp.escaped++ : ev.destAmp.plain++;
  }
}

/** Whether a table is padded and its delimiter row legacy; the table remembers its own padding in `data.padded`. */
function noteTable(ev: Evidence, node: Nodes, src: string): void {
  // Rows after the first carry their container's prefix (`> ` in a quote, spaces in a list item).
  const lines = src.split('\n').map((l, i) => (i === 0 ? l : l.replace(/^[ \t>]*/, '')));
  const delim = lines[1] ?? '';
  if (/\|\s*:?-{3}:?\s*\|/.test(delim) && /^\|?\s*(?::-{3}:?|-{3}:)\s*\|/.test(delim)) ev.tableLegacyDelim++;
  const header = lines[0] ?? '';
  const delimCells = delim
    .split('|')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const threeDash = delimCells.length > 0 && delimCells.every((c) => /^:?-{3}:?$/.test(c));
  const headerCells = header
    .split('|')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const padded =
    lines.length > 1 &&
    (threeDash
      ? headerCells.every((c) => c.length <= 3) && header.length === delim.length
      : header.length === delim.length || delimCells.some((c) => c.replace(/:/g, '').length > 3));
  if (padded) ev.tablePadded++;
  else ev.tableUnpadded++;
  ((node.data ??= {}) as Record<string, unknown>).padded = padded;
}

/** Drop the `data.padded` marks of tables padded like the file's majority (`null`: no table). */
function tidyTablePadding(node: Nodes, tablePaddingStyle: boolean | null): void {
  if (node.type === 'table' && node.data) {
    const d = node.data as Record<string, unknown>;
    if (d.padded === tablePaddingStyle || d.padded === undefined) delete d.padded;
    if (Object.keys(d).length === 0) delete node.data;
  }
  if ('children' in node) for (const c of node.children as Nodes[]) tidyTablePadding(c, tablePaddingStyle);
}

/** Which exporter wrote the file, from the signals each era leaves. */
function detectEra(text: string, ev: Evidence): Style['era'] {
  const signals = { legacy: 0, current: 0 };
  if (ev.esc.parenEscaped > 0) signals.legacy += 2;
  if (/\n\n$/.test(text)) signals.legacy += 1;
  if (/\{% page-ref /.test(text)) signals.legacy += 1;
  if (ev.tableLegacyDelim > 0) signals.legacy += 1;
  if ((ev.breaks.spaces ?? 0) > 0) signals.legacy += 1;
  if (/\{% content-ref |\{% columns|\{% stepper|&#x20;/.test(text)) signals.current += 2;
  if ((ev.breaks.backslash ?? 0) > 0) signals.current += 1;
  return signals.legacy > signals.current ? 'legacy' : 'current';
}

/** Markers of lists, emphasis, breaks and fences, and the newlines ending the file. */
function markStyle(text: string, ev: Evidence, base: Style): Partial<Style> {
  // Line endings ending the file (a file of `\n` may end with a carriage return GitBook kept in its text).
  // Spaces after the last line break (`…\n    `) are written after those line endings.
  const spaces = /(?:\r\n|\r|\n)([ \t]+)$/.exec(text)?.[1] ?? '';
  const ending = /(?:\r\n|\r|\n)*$/.exec(text.slice(0, text.length - spaces.length))![0];
  const trailing = ending.match(/\r\n|\r|\n/g)?.length ?? 0;
  // Lines holding only spaces between the last block and those line endings (`Planted. ⏎⏎ ⏎⏎⏎⏎`).
  const blank = /(?:\n[ \t]*)+$/.exec(text.slice(0, text.length - spaces.length - ending.length))?.[0] ?? '';
  return {
    bullet: top(ev.bullets, base.bullet),
    emphasis: top(ev.emph, base.emphasis),
    strong: top(ev.strong, base.strong),
    hardBreak: top(ev.breaks, base.hardBreak),
    orderedDelimiter: top(ev.delims, base.orderedDelimiter),
    incrementListMarker: ev.repeat > ev.increment ? false : base.incrementListMarker,
    fence: top(ev.fences, base.fence),
    trailingNewlines: trailing,
    trailingSpaces: spaces,
    trailingBlankLines: /[ \t]/.test(blank) && trailing > 0 ? blank : '',
    leadingNewlines: /^\n*/.exec(text)![0].length,
  };
}

function tableStyle(ev: Evidence, base: Style): Partial<Style> {
  const none = ev.tablePadded + ev.tableUnpadded === 0;
  return {
    tablePadding: none ? base.tablePadding : ev.tablePadded >= ev.tableUnpadded,
    tableDelimiterLegacy: none ? base.tableDelimiterLegacy : ev.tableLegacyDelim > 0,
  };
}

/** Which characters the file escapes, in prose, in destinations and in alt text, and which entities it writes. */
function escapeStyle(ev: Evidence, base: Style): Partial<Style> {
  const { esc, alt, destAmp, trailingBackslash } = ev;
  return {
    escapeParens: esc.parenEscaped + esc.parenPlain === 0 ? base.escapeParens : esc.parenEscaped > esc.parenPlain,
    escapeClosingBracket: esc.bracketEscaped + esc.bracketPlain === 0 ? base.escapeClosingBracket : esc.bracketEscaped > esc.bracketPlain,
    escapePipe: esc.pipeEscaped > esc.pipePlain,
    escapeHash: esc.hashEscaped > esc.hashPlain,
    escapeTilde: esc.tildePlain === 0 || esc.tildeEscaped >= esc.tildePlain,
    escapeArrow: esc.arrowPlain === 0 || esc.arrowEscaped >= esc.arrowPlain,
    escapeUnderscore: esc.underscorePlain > esc.underscoreEscaped ? 'boundary' : 'always',
    escapeLiquid: esc.liquidPlain === 0 || esc.liquidEscaped > 0,
    destinationAmpersand: destAmp.plain > destAmp.escaped ? 'plain' : 'escaped',
    destinationEscapes: [...ev.destEsc].sort().join(''),
    escapeAmpersand: esc.ampEscaped + esc.ampPlain === 0 ? base.escapeAmpersand : esc.ampEscaped >= esc.ampPlain ? 'always' : 'reference',
    escapeTrailingBackslash:
      trailingBackslash.escaped + trailingBackslash.plain === 0 ? base.escapeTrailingBackslash : trailingBackslash.escaped >= trailingBackslash.plain,
    altApos: alt.apos > alt.aposPlain,
    altAmp: alt.amp > alt.ampPlain,
    altQuot: alt.quot > alt.quotPlain,
    altHex: alt.hex > alt.hexPlain,
    altPlain: [...'{}~'].filter((c) => (alt.plain[c] ?? 0) > (alt.escaped[c] ?? 0)).join(''),
    escapeEquals: esc.equalsPlain === 0 || esc.equalsEscaped >= esc.equalsPlain,
    escapeDashes: esc.dashesPlain === 0 || esc.dashesEscaped >= esc.dashesPlain,
    namedEntities: esc.ltEntity + esc.ltEscaped === 0 ? base.namedEntities : esc.ltEntity > esc.ltEscaped,
    ltEntityAlways: esc.ltEntity > 0 && esc.ltPlain === 0 && esc.ltEntity > esc.ltEscaped,
    gtEntity: esc.gtEntity + esc.gtPlain === 0 ? base.gtEntity : esc.gtEntity >= esc.gtPlain,
  };
}

/** The most frequent thematic break, when it is a well-formed one. */
function applyRuleStyle(style: Style, rules: Map<string, number>): void {
  const rule = [...rules.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (rule && /^([*_-])(?:\s*\1){2,}$/.test(rule)) {
    style.rule = rule[0] as Style['rule'];
    style.ruleSpaces = /\s/.test(rule);
    style.ruleRepetition = rule.replace(/\s/g, '').length;
  }
}

function newEscapeCounts() {
  return {
    parenEscaped: 0,
    parenPlain: 0,
    bracketEscaped: 0,
    bracketPlain: 0,
    underscoreEscaped: 0,
    underscorePlain: 0,
    ampEscaped: 0,
    ampPlain: 0,
    ltEntity: 0,
    ltEscaped: 0,
    ltPlain: 0,
    gtEntity: 0,
    gtPlain: 0,
    liquidEscaped: 0,
    liquidPlain: 0,
    pipeEscaped: 0,
    pipePlain: 0,
    hashEscaped: 0,
    hashPlain: 0,
    tildeEscaped: 0,
    tildePlain: 0,
    arrowEscaped: 0,
    arrowPlain: 0,
    equalsEscaped: 0,
    equalsPlain: 0,
    dashesEscaped: 0,
    dashesPlain: 0,
  };
}
type EscapeCounts = ReturnType<typeof newEscapeCounts>;

/** Whether `src[i]` begins a line's text: only indentation, `>` and a list marker before it on its line. */
function atLineStart(src: string, i: number, linePrefix: string): boolean {
  const before = src.slice(0, i);
  const nl = before.lastIndexOf('\n');
  const line = nl >= 0 ? before.slice(nl + 1) : linePrefix + before;
  // A task item's text starts its line after the checkbox (`* [ ] =&gt;`).
  return /^[ \t>]*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)?$/.test(line);
}

/** Count escaped vs. literal `(`/`)`, `]` and intra-word `_` in the source of a text node. */
function countEscapes(src: string, c: EscapeCounts, inTableCell = false, inLabel = false, linePrefix = ''): void {
  // A plain `_` at a word boundary is a legacy exporter's broken emphasis marker (`to_positions_,`):
  // the intra-word `_` of the same run of text are such markers too, not evidence of `boundary` escaping.
  const brokenMarkers = /(^|[^\\\p{L}\p{N}])_|_($|[^\p{L}\p{N}])/u.test(src.replace(/\\./g, 'x'));
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (ch === '\\' && i + 1 < src.length) {
      const n = src[i + 1]!;
      // `1\)` starting a line keeps an ordered list from forming: syntax, not evidence that the page escapes `)`.
      if (n === '(' || n === ')') {
        if (!(n === ')' && /^\d{1,9}$/.test(src.slice(0, i).split('\n').pop()!) && atLineStart(src, src.slice(0, i).search(/\d+$/), linePrefix)))
          c.parenEscaped++;
      } else if (n === ']') {
        if (!inLabel) c.bracketEscaped++;
      } else if (n === '<') c.ltEscaped++;
      else if (n === '|' && !inTableCell) c.pipeEscaped++;
      else if (n === '#' && !atLineStart(src, i, linePrefix))
        c.hashEscaped++; // at a line start the escape is syntax (a text may start mid-line: `[\#1450](…)`)
      else if (n === '{' && (src[i + 2] === '%' || src[i + 2] === '{')) c.liquidEscaped++;
      else if (n === '&' && /[A-Za-z#]/.test(src[i + 2] ?? '')) c.ampEscaped++;
      else if (n === '_' && /\w/.test(src[i - 1] ?? '') && /\w/.test(src[i + 2] ?? '')) c.underscoreEscaped++;
      else if (n === '~') c.tildeEscaped++;
      else if (n === '-' && src[i + 2] === '>' && atLineStart(src, i, linePrefix)) c.arrowEscaped++;
      else if (n === '=' && atLineStart(src, i, linePrefix)) c.equalsEscaped++;
      else if (n === '-' && src[i + 2] === '-' && atLineStart(src, i, linePrefix)) c.dashesEscaped++;
      i++;
      continue;
    }
    if (ch === '-' && src[i + 1] === '>' && atLineStart(src, i, linePrefix)) c.arrowPlain++;
    if (ch === '=' && atLineStart(src, i, linePrefix)) c.equalsPlain++;
    if (ch === '-' && src[i + 1] === '-' && /[^-\s]/.test(src.slice(i, src.indexOf('\n', i) >>> 0)) && atLineStart(src, i, linePrefix)) c.dashesPlain++;
    if (ch === '&' && src.startsWith('&lt;', i)) c.ltEntity++;
    if (ch === '<') c.ltPlain++;
    if (ch === '&' && src.startsWith('&gt;', i)) c.gtEntity++;
    // A `>` after only spaces and `>` on its line is a blockquote marker, not text (the line may start before the text).
    if (ch === '>') {
      const nl = src.lastIndexOf('\n', i - 1);
      if (/[^\s>]/.test(nl >= 0 ? src.slice(nl + 1, i) : linePrefix + src.slice(0, i))) c.gtPlain++;
    }
    if (ch === '{' && (src[i + 1] === '%' || src[i + 1] === '{')) c.liquidPlain++;
    if (ch === '|' && !inTableCell) c.pipePlain++;
    if (ch === '#' && !atLineStart(src, i, linePrefix)) c.hashPlain++;
    if (ch === '~') c.tildePlain++;
    if (ch === '(' || ch === ')') c.parenPlain++;
    else if (ch === ']') {
      if (!inLabel) c.bracketPlain++;
    } else if (ch === '&' && /[A-Za-z#]/.test(src[i + 1] ?? '') && !/^&(#x?[0-9a-f]+|[a-z][a-z0-9]*|#xNAN);/i.test(src.slice(i, i + 12))) c.ampPlain++;
    else if (ch === '_' && !brokenMarkers && /[\p{L}\p{N}]/u.test(src[i - 1] ?? '') && /[\p{L}\p{N}]/u.test(src[i + 1] ?? '')) c.underscorePlain++;
  }
}
