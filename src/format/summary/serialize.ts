import { escapeLinkText, formatDestination, formatLinkTitle } from './escape.js';
import type { ParsedToc, TocEntry } from './types.js';

/** Write SUMMARY.md in GitBook's style (heading, blank line around groups, no blank between items). */
export function serializeSummary(toc: ParsedToc): string {
  const { style } = toc;
  const out: string[] = [`# ${style.heading}`, ''];
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
    }
    writeEntries(section.entries, 0);
  });
  for (const c of toc.comments) {
    if (out[out.length - 1] !== '') out.push('');
    out.push(c);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n') + '\n'.repeat(Math.max(1, style.trailingNewlines));
}
