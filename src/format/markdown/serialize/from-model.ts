/** Serialization of a page file from its model alone, and of single blocks (used by the minimal diff). */
import { unified } from 'unified';
import remarkStringify from 'remark-stringify';
import { remarkGitbookGfm } from '../plugins/gfm.js';
import { remarkGitbookMath } from '../plugins/math.js';
import remarkFrontmatter from 'remark-frontmatter';
import type { Root, RootContent, Heading, PhrasingContent } from 'mdast';
import type { PageFile } from '../types.js';
import { toMarkdownOptions } from './handlers.js';
import { applyLineEndings } from '../style/line-endings.js';
import { restoreWhitespaceLines } from '../style/spacing.js';

export function serializeFromModel(page: PageFile): string {
  const { style } = page;
  const opaque = page.document.children.length === 1 && (page.document.children[0]!.data as { opaque?: boolean } | undefined)?.opaque;
  let body: string;
  if (opaque) {
    body = (page.document.children[0] as { value: string }).value;
    if (page.frontMatter) body = `---\n${fmText(page)}---\n\n${body}`;
  } else {
    const children: RootContent[] = [];
    if (page.frontMatter) children.push({ type: 'yaml', value: fmText(page).replace(/\n$/, '') });
    if (page.title) {
      const heading = titleHeading(page);
      if (page.frontMatter) heading.data = { ...(heading.data ?? {}), blankBefore: style.blankAfterFrontMatter } as never;
      children.push(heading);
    }
    page.document.children.forEach((c, i) => {
      if (i === 0 && (page.title || page.frontMatter)) {
        const before = page.title ? style.blankAfterTitle : style.blankAfterFrontMatter;
        children.push(before === 1 ? c : ({ ...c, data: { ...(c.data ?? {}), blankBefore: before } } as RootContent));
      } else children.push(c);
    });
    const tree: Root = { type: 'root', children };
    body = restoreWhitespaceLines(stringifier(style).stringify(tree) as string);
    body = body.replace(/\n+$/, '');
  }
  let out =
    '\n'.repeat(body === '' ? 0 : style.leadingNewlines) +
    body +
    (body === '' ? '' : style.trailingBlankLines) +
    '\n'.repeat(style.trailingNewlines) +
    style.trailingSpaces;
  if (body === '' && style.trailingNewlines === 0) out = style.trailingSpaces;
  if (style.lineEnding === '\r\n') out = out.replace(/\n/g, '\r\n');
  else if (style.mixedLineEndings) out = applyLineEndings(out, style.mixedLineEndings);
  if (style.bom) out = '\uFEFF' + out;
  return out;
}

function fmText(page: PageFile): string {
  return page.frontMatter!.toString();
}

function titleHeading(page: PageFile): Heading {
  const t = page.title!;
  const children: PhrasingContent[] = [];
  if (t.text !== '') children.push({ type: 'text', value: t.text });
  if (t.anchor !== undefined) {
    if (children.length) children.push({ type: 'text', value: ' ' });
    children.push({ type: 'html', value: `<a href="#${t.anchor}" id="${t.anchor}"></a>` });
  }
  return { type: 'heading', depth: 1, children };
}

const cache = new Map<string, ReturnType<typeof build>>();
function build(style: PageFile['style']) {
  return unified()
    .use(remarkStringify, toMarkdownOptions(style))
    .use(remarkGitbookGfm, { tablePipeAlign: style.tablePadding, tableCellPadding: true })
    .use(remarkGitbookMath)
    .use(remarkFrontmatter, ['yaml'])
    .freeze();
}
function stringifier(style: PageFile['style']) {
  const key = JSON.stringify(style);
  let p = cache.get(key);
  if (!p) {
    if (cache.size > 64) cache.clear();
    p = build(style);
    cache.set(key, p);
  }
  return p;
}

/** Serialize one top-level block alone (used by minimal-diff for changed blocks). */
export function serializeBlock(block: RootContent, style: PageFile['style']): string {
  const clean = { ...block, data: { ...(block.data ?? {}) } } as RootContent;
  delete (clean.data as Record<string, unknown>).blankBefore;
  return restoreWhitespaceLines(stringifier(style).stringify({ type: 'root', children: [clean] }) as string).replace(/\n+$/, '');
}

/** The `# Title` line of a page. */
export function serializeTitleLine(page: PageFile): string {
  return (stringifier(page.style).stringify({ type: 'root', children: [titleHeading(page)] }) as string).replace(/\n+$/, '');
}
