/**
 * What a template looks like before it is applied: its outline (page titles, as a markdown list) and an SVG card
 * (emoji, title, subtitle, the first pages) for the gallery, in a light and a dark theme. Text is escaped for XML.
 */
import { importTree, readWorkingTree, type PageCodecRunner } from '../format/index.js';
import type { Store } from '../store/index.js';
import type { TemplateEntry } from './catalog.js';
import { MANIFEST_FILE } from './manifest.js';

/** A page of a template's outline. */
export interface OutlineNode {
  title: string;
  children: OutlineNode[];
}

/** The page tree of a template, read without writing anything (its folder imported in memory, or its space's revision). */
export async function templateOutline(store: Store, template: TemplateEntry, codec?: PageCodecRunner): Promise<OutlineNode[]> {
  if (template.space) return template.space.revisionId ? store.revisions.pages(template.space.revisionId) : [];
  if (!template.dir) return [];
  const tree = await readWorkingTree(template.dir);
  tree.delete(MANIFEST_FILE);
  return (await importTree(tree, codec ? { codec } : {})).revision.pages;
}

export function outlineMarkdown(template: TemplateEntry, pages: OutlineNode[]): string {
  const lines = [`# ${template.emoji} ${template.title}`, '', template.subtitle, ''];
  const walk = (list: OutlineNode[], depth: number) => {
    for (const p of list) {
      lines.push(`${'  '.repeat(depth)}* ${p.title.replace(/[\\*_[\]<>]/g, (c) => `\\${c}`)}`);
      walk(p.children, depth + 1);
    }
  };
  walk(pages, 0);
  return `${lines.join('\n')}\n`;
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export function previewSvg(template: TemplateEntry, pages: OutlineNode[], theme: 'light' | 'dark'): string {
  const [bg, fg, muted, line] = theme === 'dark' ? ['#1c1f24', '#f2f4f7', '#a0a8b4', '#2e333b'] : ['#ffffff', '#1c1f24', '#5b6472', '#e3e6ea'];
  const titles: string[] = [];
  const walk = (list: OutlineNode[]) => list.forEach((p) => (titles.push(p.title), walk(p.children)));
  walk(pages);
  const rows = titles
    .slice(0, 6)
    .map((t, i) => `<text x="40" y="${170 + i * 26}" font-size="15" fill="${muted}">• ${xml(t.length > 48 ? `${t.slice(0, 47)}…` : t)}</text>`)
    .join('\n  ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="340" viewBox="0 0 480 340" role="img" aria-label="${xml(template.title)}">
  <rect width="480" height="340" rx="16" fill="${bg}" stroke="${line}"/>
  <text x="40" y="72" font-size="36">${xml(template.emoji)}</text>
  <text x="92" y="70" font-family="sans-serif" font-size="22" font-weight="bold" fill="${fg}">${xml(template.title)}</text>
  <text x="40" y="110" font-family="sans-serif" font-size="13" fill="${muted}">${xml(template.subtitle.length > 70 ? `${template.subtitle.slice(0, 69)}…` : template.subtitle)}</text>
  <line x1="40" y1="135" x2="440" y2="135" stroke="${line}"/>
  ${rows}
</svg>
`;
}
