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

export function parseSummary(text: string, path: string): ParsedSummary {
  const warnings: FormatWarning[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const sections: TocSection[] = [{ group: null, entries: [] }];
  const comments: string[] = [];
  const commentPlaces: NonNullable<ParsedToc['commentPlaces']> = [];
  let last: CommentAnchor = { top: true };
  const style: TocStyle = {
    heading: 'Table of contents',
    indent: 2,
    bullet: '*',
    escapeDestinations: false,
    escapeParens: false,
    separator: '***',
    trailingNewlines: 1,
  };
  let headingSeen = false;
  let indentSeen = false;
  let bulletSeen = false;
  // Stack of open entries with the column of their bullet.
  let stack: Array<{ indent: number; entry: TocEntry }> = [];
  const current = () => sections[sections.length - 1]!;

  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  style.trailingNewlines = Math.max(1, lines.length - end);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const lineNo = n + 1;
    if (line.trim() === '') continue;
    if (line.trimStart().startsWith('<!--')) {
      let j = n;
      while (j < lines.length && !lines[j]!.includes('-->')) j++;
      const raw = lines.slice(n, Math.min(j, lines.length - 1) + 1).join('\n');
      comments.push(raw);
      commentPlaces.push({ after: last, blankBefore: n > 0 && lines[n - 1]!.trim() === '' });
      for (const inner of raw.split('\n')) {
        const m = /\[([^\]]*)\]\(([^)]*)\)/.exec(inner);
        if (m)
          warnings.push(
            warning(FormatWarningCodes.SUMMARY_COMMENTED_ENTRY, `entry ${JSON.stringify(m[2])} is hidden in an HTML comment and not imported`, {
              severity: 'info',
              path,
              line: lineNo,
            }),
          );
      }
      n = j;
      continue;
    }
    if (/^# /.test(line) && !headingSeen && stack.length === 0 && sections.length === 1 && sections[0]!.entries.length === 0) {
      style.heading = line.slice(2).trim();
      headingSeen = true;
      continue;
    }
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
      const section: TocSection = { group, entries: [] };
      sections.push(section);
      last = { section };
      stack = [];
      continue;
    }
    if (SEPARATOR.test(line) && !ITEM.test(line.replace(/^( *[*+-])[ \t]+\[/, ''))) {
      style.separator = line.trim();
      const section: TocSection = { group: { title: '', untitled: true, line: lineNo }, entries: [] };
      sections.push(section);
      last = { section };
      stack = [];
      continue;
    }
    const m = ITEM.exec(line);
    if (!m) {
      warnings.push(
        warning(FormatWarningCodes.SUMMARY_UNPARSED_LINE, `line not understood and ignored: ${JSON.stringify(line.slice(0, 120))}`, { path, line: lineNo }),
      );
      continue;
    }
    const indent = m[1]!.length;
    const content = m[3]!;
    if (!bulletSeen) {
      style.bullet = m[2] as TocStyle['bullet'];
      bulletSeen = true;
    }
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    if (stack.length > 0 && !indentSeen) {
      style.indent = indent - stack[stack.length - 1]!.indent;
      indentSeen = true;
    }
    let entry: TocEntry | null = null;
    const fence = FENCE.exec(content);
    if (fence) {
      const marker = fence[1]!;
      const contentCol = line.length - content.length;
      const body: string[] = [];
      let j = n + 1;
      for (; j < lines.length; j++) {
        const l = lines[j]!;
        if (l.trim().startsWith(marker) && l.trim().replace(/[`~]/g, '') === '') break;
        body.push(l.slice(Math.min(contentCol, l.length - l.trimStart().length)));
      }
      if (j >= lines.length)
        warnings.push(warning(FormatWarningCodes.SUMMARY_UNPARSED_LINE, 'unterminated code fence in SUMMARY.md entry', { path, line: lineNo }));
      entry = { kind: 'yaml', source: body.join('\n'), children: [], line: lineNo };
      n = j;
    } else {
      const link = parseLinkItem(content);
      if (!link || link.rest.trim() !== '') {
        warnings.push(
          warning(FormatWarningCodes.SUMMARY_UNPARSED_LINE, `entry is not a link and is ignored: ${JSON.stringify(content.slice(0, 120))}`, {
            path,
            line: lineNo,
          }),
        );
        continue;
      }
      if (!link.angle && /\\[_*`]/.test(link.rawDest)) style.escapeDestinations = true;
      if (/\\[()]/.test(link.rawText)) style.escapeParens = true;
      entry = { kind: 'link', text: link.text, dest: link.dest, children: [], line: lineNo };
      if (link.title !== undefined) entry.linkTitle = link.title;
    }
    const parent = stack[stack.length - 1];
    if (parent) parent.entry.children.push(entry);
    else current().entries.push(entry);
    stack.push({ indent, entry });
    last = { entry };
  }
  return { toc: { sections, style, comments, commentPlaces }, warnings };
}
