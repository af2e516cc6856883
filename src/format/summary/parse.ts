import { FormatWarningCodes, warning, type FormatWarning } from '../errors.js';
import { unescapeMarkdown } from './escape.js';
import type { CommentAnchor, ParsedToc, TocEntry, TocSection, TocStyle } from './types.js';

const ITEM = /^( *)([*+-])[ \t]+(.*)$/;
const GROUP = /^##[ \t]+(.*?)[ \t]*$/;
const ANCHOR = /[ \t]*<a\s+href="#([^"]*)"\s+id="([^"]*)"\s*>\s*<\/a>\s*$/;
const SEPARATOR = /^ {0,3}([*_-])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;

/** Parse `[text](dest "title")` at the start of `s`. */
export function parseLinkItem(
  s: string,
): { text: string; dest: string; rawText: string; rawDest: string; angle: boolean; title?: string; rest: string } | null {
  if (s[0] !== '[') return null;
  let i = 1;
  let depth = 0;
  for (; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') depth++;
    else if (c === ']') {
      if (depth === 0) break;
      depth--;
    }
  }
  if (i >= s.length || s[i + 1] !== '(') return null;
  const rawText = s.slice(1, i);
  i += 2;
  while (s[i] === ' ' || s[i] === '\t') i++;
  let rawDest = '';
  const angle = s[i] === '<';
  if (angle) {
    const start = ++i;
    for (; i < s.length && s[i] !== '>'; i++) if (s[i] === '\\') i++;
    if (i >= s.length) return null;
    rawDest = s.slice(start, i);
    i++;
  } else {
    const start = i;
    let parens = 0;
    for (; i < s.length; i++) {
      const c = s[i]!;
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === ' ' || c === '\t') break;
      if (c === '(') parens++;
      else if (c === ')') {
        if (parens === 0) break;
        parens--;
      }
    }
    rawDest = s.slice(start, i);
  }
  while (s[i] === ' ' || s[i] === '\t') i++;
  let title: string | undefined;
  const q = s[i];
  if (q === '"' || q === "'" || q === '(') {
    const close = q === '(' ? ')' : q;
    const start = ++i;
    for (; i < s.length && s[i] !== close; i++) if (s[i] === '\\') i++;
    if (i >= s.length) return null;
    title = unescapeMarkdown(s.slice(start, i));
    i++;
    while (s[i] === ' ' || s[i] === '\t') i++;
  }
  if (s[i] !== ')') return null;
  const out: { text: string; dest: string; rawText: string; rawDest: string; angle: boolean; title?: string; rest: string } = {
    text: unescapeMarkdown(rawText),
    dest: unescapeMarkdown(rawDest),
    rawText,
    rawDest,
    angle,
    rest: s.slice(i + 1),
  };
  if (title !== undefined) out.title = title;
  return out;
}

/**
 * Parse SUMMARY.md. Line-oriented, as GitBook writes it, tolerant of human edits (4-space
 * nesting, `-` bullets, HTML comments, `----` separators). Never throws.
 */
/** What `parseSummary` reads from a SUMMARY.md (structured-cloneable: it crosses to and from the parse pool). */
export interface ParsedSummary {
  toc: ParsedToc;
  warnings: FormatWarning[];
}

/** The state of one `parseSummary` call as it reads the lines in order. */
interface SummaryReader {
  path: string;
  lines: string[];
  warnings: FormatWarning[];
  sections: TocSection[];
  comments: string[];
  commentPlaces: NonNullable<ParsedToc['commentPlaces']>;
  /** Where the next comment goes back on export. */
  last: CommentAnchor;
  style: TocStyle;
  headingSeen: boolean;
  indentSeen: boolean;
  bulletSeen: boolean;
  /** Stack of open entries with the column of their bullet. */
  stack: Array<{ indent: number; entry: TocEntry }>;
}

function newReader(text: string, path: string): SummaryReader {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const style: TocStyle = {
    heading: 'Table of contents',
    indent: 2,
    bullet: '*',
    escapeDestinations: false,
    escapeParens: false,
    separator: '***',
    trailingNewlines: 1,
  };
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  style.trailingNewlines = Math.max(1, lines.length - end);
  return {
    path,
    lines,
    warnings: [],
    sections: [{ group: null, entries: [] }],
    comments: [],
    commentPlaces: [],
    last: { top: true },
    style,
    headingSeen: false,
    indentSeen: false,
    bulletSeen: false,
    stack: [],
  };
}

/** An HTML comment starting at line `n`, kept for export (an entry inside it is reported); returns its last line. */
function readComment(r: SummaryReader, n: number): number {
  const { lines } = r;
  let j = n;
  while (j < lines.length && !lines[j]!.includes('-->')) j++;
  const raw = lines.slice(n, Math.min(j, lines.length - 1) + 1).join('\n');
  r.comments.push(raw);
  r.commentPlaces.push({ after: r.last, blankBefore: n > 0 && lines[n - 1]!.trim() === '' });
  for (const inner of raw.split('\n')) {
    const m = /\[([^\]]*)\]\(([^)]*)\)/.exec(inner);
    if (m)
      r.warnings.push(
        warning(FormatWarningCodes.SUMMARY_COMMENTED_ENTRY, `entry ${JSON.stringify(m[2])} is hidden in an HTML comment and not imported`, {
          severity: 'info',
          path: r.path,
          line: n + 1,
        }),
      );
  }
  return j;
}

/** A `## group` heading or a `---` separator starts a section; false for any other line. */
function readSectionStart(r: SummaryReader, line: string, lineNo: number): boolean {
  let section: TocSection;
  const g = GROUP.exec(line);
  if (g) {
    let title = g[1]!;
    let anchor: string | undefined;
    const a = ANCHOR.exec(title);
    if (a) {
      anchor = a[2] || a[1];
      title = title.slice(0, a.index);
    }
    const group: NonNullable<TocSection['group']> = { title: unescapeMarkdown(title.trim()), untitled: false, line: lineNo };
    if (anchor !== undefined) group.anchor = anchor;
    section = { group, entries: [] };
  } else if (SEPARATOR.test(line) && !ITEM.test(line.replace(/^( *[*+-])[ \t]+\[/, ''))) {
    r.style.separator = line.trim();
    section = { group: { title: '', untitled: true, line: lineNo }, entries: [] };
  } else return false;
  r.sections.push(section);
  r.last = { section };
  r.stack = [];
  return true;
}

/** A fenced (```yaml) entry whose bullet is on line `n`; `end` is the line of its closing fence. */
function fencedEntry(r: SummaryReader, n: number, content: string, marker: string): { entry: TocEntry; end: number } {
  const { lines } = r;
  const contentCol = lines[n]!.length - content.length;
  const body: string[] = [];
  let j = n + 1;
  for (; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.trim().startsWith(marker) && l.trim().replace(/[`~]/g, '') === '') break;
    body.push(l.slice(Math.min(contentCol, l.length - l.trimStart().length)));
  }
  if (j >= lines.length)
    r.warnings.push(warning(FormatWarningCodes.SUMMARY_UNPARSED_LINE, 'unterminated code fence in SUMMARY.md entry', { path: r.path, line: n + 1 }));
  return { entry: { kind: 'yaml', source: body.join('\n'), children: [], line: n + 1 }, end: j };
}

/** A `[text](dest "title")` entry (its escapes noted in the style), or null with a warning. */
function linkEntry(r: SummaryReader, content: string, lineNo: number): TocEntry | null {
  const link = parseLinkItem(content);
  if (!link || link.rest.trim() !== '') {
    r.warnings.push(
      warning(FormatWarningCodes.SUMMARY_UNPARSED_LINE, `entry is not a link and is ignored: ${JSON.stringify(content.slice(0, 120))}`, {
        path: r.path,
        line: lineNo,
      }),
    );
    return null;
  }
  if (!link.angle && /\\[_*`]/.test(link.rawDest)) r.style.escapeDestinations = true;
  if (/\\[()]/.test(link.rawText)) r.style.escapeParens = true;
  const entry: TocEntry = { kind: 'link', text: link.text, dest: link.dest, children: [], line: lineNo };
  if (link.title !== undefined) entry.linkTitle = link.title;
  return entry;
}

/** The bulleted item `m` on line `n`, nested under the open entry of a smaller indent; returns the last line it used. */
function readItem(r: SummaryReader, n: number, m: RegExpExecArray): number {
  const { style, stack } = r;
  const indent = m[1]!.length;
  const content = m[3]!;
  if (!r.bulletSeen) {
    style.bullet = m[2] as TocStyle['bullet'];
    r.bulletSeen = true;
  }
  while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
  if (stack.length > 0 && !r.indentSeen) {
    style.indent = indent - stack[stack.length - 1]!.indent;
    r.indentSeen = true;
  }
  let entry: TocEntry | null;
  let end = n;
  const fence = FENCE.exec(content);
  if (fence) ({ entry, end } = fencedEntry(r, n, content, fence[1]!));
  else entry = linkEntry(r, content, n + 1);
  if (entry === null) return n;
  const parent = stack[stack.length - 1];
  if (parent) parent.entry.children.push(entry);
  else r.sections[r.sections.length - 1]!.entries.push(entry);
  stack.push({ indent, entry });
  r.last = { entry };
  return end;
}

export function parseSummary(text: string, path: string): ParsedSummary {
  const r = newReader(text, path);
  const { lines } = r;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const lineNo = n + 1;
    if (line.trim() === '') continue;
    if (line.trimStart().startsWith('<!--')) {
      n = readComment(r, n);
      continue;
    }
    if (/^# /.test(line) && !r.headingSeen && r.stack.length === 0 && r.sections.length === 1 && r.sections[0]!.entries.length === 0) {
      r.style.heading = line.slice(2).trim();
      r.headingSeen = true;
      continue;
    }
    if (readSectionStart(r, line, lineNo)) continue;
    const m = ITEM.exec(line);
    if (!m) {
      r.warnings.push(
        warning(FormatWarningCodes.SUMMARY_UNPARSED_LINE, `line not understood and ignored: ${JSON.stringify(line.slice(0, 120))}`, { path, line: lineNo }),
      );
      continue;
    }
    n = readItem(r, n, m);
  }
  const { sections, style, comments, commentPlaces, warnings } = r;
  return { toc: { sections, style, comments, commentPlaces }, warnings };
}
