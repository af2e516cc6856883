/**
 * Table of contents inferred from folders when SUMMARY.md is absent (GitBook's algorithm is not
 * documented; this is Folio's rule, applied the same way to every repository):
 * - the space's README (structure.readme) comes first;
 * - in each folder, Markdown files then sub-folders, each sorted by name (natural order,
 *   case-insensitive); `README.md` of a folder is that folder's page and the folder's content
 *   becomes its children;
 * - a top-level folder without README.md becomes a group titled after the folder; a deeper
 *   folder without README.md contributes its pages to the parent level;
 * - `.gitbook/` and dot-folders are skipped; titles come from the pages' `# H1` (the entry text
 *   is left empty here and filled in on import).
 */
import type { SourceTree } from '../model.js';
import { dirname, isMarkdownPath, isWithin, relativePath } from '../paths.js';
import type { ParsedToc, TocEntry, TocSection } from './types.js';

interface Folder {
  files: string[];
  folders: Map<string, Folder>;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function humanize(name: string): string {
  const s = name.replace(/[-_]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function inferToc(tree: SourceTree, root: string, readme: string, summaryPath: string): ParsedToc {
  const top: Folder = { files: [], folders: new Map() };
  for (const path of tree.keys()) {
    if (!isWithin(path, root) || !isMarkdownPath(path) || path === summaryPath || path === readme) continue;
    const rel = relativePath(root, path);
    const segs = rel.split('/');
    if (segs.some((s, i) => i < segs.length - 1 && s.startsWith('.'))) continue;
    let f = top;
    for (const s of segs.slice(0, -1)) {
      let next = f.folders.get(s);
      if (!next) {
        next = { files: [], folders: new Map() };
        f.folders.set(s, next);
      }
      f = next;
    }
    f.files.push(path);
  }
  const summaryDir = dirname(summaryPath);
  const entry = (path: string, children: TocEntry[]): TocEntry => ({ kind: 'link', text: '', dest: relativePath(summaryDir, path), children, line: 0 });
  const isReadme = (p: string) => /(^|\/)readme\.md$/i.test(p);
  const entriesOf = (folder: Folder): TocEntry[] => {
    const out: TocEntry[] = [];
    for (const file of [...folder.files].filter((p) => !isReadme(p)).sort(collator.compare)) out.push(entry(file, []));
    for (const name of [...folder.folders.keys()].sort(collator.compare)) {
      const sub = folder.folders.get(name)!;
      const rd = sub.files.find(isReadme);
      if (rd) out.push(entry(rd, entriesOf(sub)));
      else out.push(...entriesOf(sub));
    }
    return out;
  };
  const first: TocSection = { group: null, entries: [] };
  if (tree.has(readme)) first.entries.push(entry(readme, []));
  const sections: TocSection[] = [first];
  for (const file of [...top.files].filter((p) => !isReadme(p)).sort(collator.compare)) first.entries.push(entry(file, []));
  for (const name of [...top.folders.keys()].sort(collator.compare)) {
    const sub = top.folders.get(name)!;
    const rd = sub.files.find(isReadme);
    if (rd) first.entries.push(entry(rd, entriesOf(sub)));
    else sections.push({ group: { title: humanize(name), untitled: false, line: 0 }, entries: entriesOf(sub) });
  }
  return {
    sections,
    style: { heading: 'Table of contents', indent: 2, bullet: '*', escapeDestinations: false, escapeParens: false, separator: '***', trailingNewlines: 1 },
    comments: [],
  };
}
