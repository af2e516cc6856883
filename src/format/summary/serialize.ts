import { escapeLinkText, formatDestination, formatLinkTitle } from './escape.js';
import type { ParsedToc, TocEntry, TocSection } from './types.js';

/** Write SUMMARY.md in GitBook's style (heading, blank line around groups, no blank between items). */
export function serializeSummary(toc: ParsedToc): string {
  const { style } = toc;
  const out: string[] = [`# ${style.heading}`, ''];
  // Comments placed after a line that is still written go there; the others go to the end.
  const placed = new Map<TocEntry | TocSection | 'top', Array<{ text: string; blankBefore: boolean }>>();
  const atEnd: string[] = [];
  const present = new Set<TocEntry | TocSection>();
  const collect = (es: TocEntry[]) => es.forEach((e) => (present.add(e), collect(e.children)));
  toc.sections.forEach((s) => (present.add(s), collect(s.entries)));
  toc.comments.forEach((text, i) => {
    const place = toc.commentPlaces?.length === toc.comments.length ? toc.commentPlaces[i]! : undefined;
    const key = !place ? undefined : 'top' in place.after ? 'top' : 'entry' in place.after ? place.after.entry : place.after.section;
    if (key === undefined || (key !== 'top' && !present.has(key))) atEnd.push(text);
    else placed.set(key, [...(placed.get(key) ?? []), { text, blankBefore: place!.blankBefore }]);
  });
  const emit = (key: TocEntry | TocSection | 'top') => {
    for (const c of placed.get(key) ?? []) {
      if (c.blankBefore && out[out.length - 1] !== '') out.push('');
      out.push(c.text);
    }
  };
  emit('top');
  const writeEntries = (entries: TocEntry[], depth: number) => {
    const pad = ' '.repeat(style.indent * depth);
    for (const e of entries) {
      if (e.kind === 'yaml') {
        const inner = ' '.repeat(style.indent * depth + 2);
        out.push(`${pad}${style.bullet} \`\`\`yaml`);
        for (const l of e.source.split('\n')) out.push(l === '' ? '' : inner + l);
        out.push(`${inner}\`\`\``);
      } else {
        const title = e.linkTitle !== undefined ? ` ${formatLinkTitle(e.linkTitle)}` : '';
        out.push(`${pad}${style.bullet} [${escapeLinkText(e.text, style.escapeParens)}](${formatDestination(e.dest, style.escapeDestinations)}${title})`);
      }
      emit(e);
      writeEntries(e.children, depth + 1);
    }
  };
  toc.sections.forEach((section, i) => {
    if (section.group) {
      if (i > 0 && out[out.length - 1] !== '') out.push('');
      if (section.group.untitled) out.push(style.separator);
      else {
        const anchor = section.group.anchor !== undefined ? ` <a href="#${section.group.anchor}" id="${section.group.anchor}"></a>` : '';
        out.push(`## ${escapeLinkText(section.group.title)}${anchor}`);
      }
      out.push('');
      if (placed.has(section)) {
        out.pop();
        emit(section);
      }
    }
    writeEntries(section.entries, 0);
  });
  for (const c of atEnd) {
    if (out[out.length - 1] !== '') out.push('');
    out.push(c);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n') + '\n'.repeat(Math.max(1, style.trailingNewlines));
}
