/**
 * File import (`source.type: "file"`): uploaded files → a tree in GitBook's Git Sync format (`SUMMARY.md`, pages,
 * `.gitbook/assets/`), which the git converter (`importTree` of `src/format/`) turns into a revision like any
 * repository. `.md` pages are kept byte for byte; `.html` goes through the website import's extraction and
 * conversion; `.docx` through mammoth then the same conversion, its images as files; a `.zip` of a space in GitBook
 * format is unpacked (with zip-bomb limits) and used as it is — alone it is the whole tree, with other files it
 * becomes a group. Any other file is kept as a space file with a warning.
 */
import type { SourceTree } from '../format/index.js';
import { memoryEntry } from '../format/index.js';
import { convertInputFile, type ConvertedInput } from './convert-file.js';
import { NothingToImportError } from './errors.js';
import { DEFAULT_FILE_IMPORT_LIMITS, type FileImportLimits } from './limits.js';
import { markdownTitle } from './markdown-file.js';
import { safeSegment, uniquePath } from './paths.js';
import type { ConvertedFile, FileImportWarning, InputFile } from './types.js';
import { decodeUtf8 } from './utf8.js';

export type { InputFile, FileImportWarning } from './types.js';
export type { FileImportLimits } from './limits.js';
export { DEFAULT_FILE_IMPORT_LIMITS, MAX_IMPORT_UPLOAD_BYTES, fileImportLimits } from './limits.js';
export { convertInputFile, type ConvertedInput } from './convert-file.js';
export {
  FileImportError,
  FileNotUploadedError,
  ZipInvalidError,
  ZipTooLargeError,
  ZipTooManyEntriesError,
  ZipEmptyError,
  ZipUnsafePathError,
  DocxInvalidError,
  DocxTooDeepError,
  NothingToImportError,
} from './errors.js';

export interface FileImportResult {
  /** The files in GitBook format, for `importTree`. */
  tree: SourceTree;
  warnings: FileImportWarning[];
}

interface SummaryLine {
  title: string;
  path: string;
}

/** The files of one import (empty ones left out) as a tree in GitBook format, each file converted here. */
export async function filesToSourceTree(files: InputFile[], limits: FileImportLimits = DEFAULT_FILE_IMPORT_LIMITS): Promise<FileImportResult> {
  const inputs = files.filter((f) => f.bytes.byteLength > 0);
  if (inputs.length === 0) throw new NothingToImportError();
  const converted: ConvertedInput[] = [];
  for (const file of inputs) converted.push(await convertInputFile(file, limits));
  return assembleSourceTree(converted);
}

/**
 * The converted files of one import, in their order, as a tree in GitBook format: one page per markdown, HTML or
 * `.docx` file (in `SUMMARY.md` in that order), each `.zip` a group of its own pages (a `.zip` alone is the whole
 * tree), other files kept in `.gitbook/assets/`.
 */
export function assembleSourceTree(converted: readonly ConvertedInput[]): FileImportResult {
  if (converted.length === 0) throw new NothingToImportError();
  const warnings: FileImportWarning[] = converted.flatMap((c) => c.warnings);
  if (converted.length === 1 && converted[0]!.kind === 'zip') return { tree: toTree(withoutWrapper(converted[0].entries)), warnings };
  const out = new Map<string, Uint8Array>();
  const taken = new Set<string>(['summary.md', '.gitbook.yaml']);
  const pages: SummaryLine[] = [];
  const groups: { title: string; lines: string[] }[] = [];
  const writePage = (name: string, page: ConvertedFile): void => {
    const path = uniquePath(`${stem(safeSegment(name))}.md`, taken);
    for (const [assetPath, bytes] of page.assets) out.set(assetPath, bytes);
    const front = page.description ? `---\ndescription: ${JSON.stringify(page.description)}\n---\n\n` : '';
    const body = page.markdown.trim() ? `\n${page.markdown.replace(/\n*$/, '\n')}` : '';
    out.set(path, new TextEncoder().encode(`${front}# ${page.title}\n${body}`));
    pages.push({ title: page.title, path });
  };
  for (const file of converted) {
    if (file.kind === 'markdown') {
      const path = uniquePath(`${stem(safeSegment(file.name))}.md`, taken);
      out.set(path, file.bytes);
      pages.push({ title: file.title, path });
    } else if (file.kind === 'page') {
      writePage(file.name, file.page);
    } else if (file.kind === 'zip') {
      const dir = uniquePath(stem(safeSegment(file.name)), taken);
      const entries = withoutWrapper(file.entries);
      for (const [path, bytes] of entries) {
        if (path.startsWith('.gitbook/assets/')) out.set(`.gitbook/assets/${dir}/${path.slice('.gitbook/assets/'.length)}`, bytes);
        else out.set(`${dir}/${path}`, /\.md$/i.test(path) ? withAssetsMoved(path, bytes, dir) : bytes);
      }
      groups.push({ title: dir, lines: zipSummary(entries, dir) });
    } else {
      out.set(uniquePath(`.gitbook/assets/${safeSegment(file.name)}`, taken), file.bytes);
    }
  }
  const summary = ['# Table of contents', '', ...pages.map((p) => `* [${escapeTitle(p.title)}](${p.path})`)];
  for (const group of groups) summary.push('', `## ${group.title}`, '', ...group.lines);
  out.set('SUMMARY.md', new TextEncoder().encode(summary.join('\n') + '\n'));
  return { tree: toTree(out), warnings };
}

/**
 * A page of a zip placed in the group folder `dir`: the space files of a tree in GitBook format live only in the
 * root's `.gitbook/assets/`, so the zip's are moved to `.gitbook/assets/<dir>/` and the page's relative paths to
 * them (`../.gitbook/assets/x.png` from `guide/README.md`) are rewritten to reach them from the page's new place.
 */
function withAssetsMoved(path: string, bytes: Uint8Array, dir: string): Uint8Array {
  // This runs on the worker's event loop: a page that names no asset (found by a native byte search) is not decoded.
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf('.gitbook/assets/') < 0) return bytes;
  const { text, valid } = decodeUtf8(bytes);
  if (!valid) return bytes;
  const depth = path.split('/').length - 1;
  const up = '../'.repeat(depth);
  const moved = '../'.repeat(depth + dir.split('/').length);
  let changed = false;
  const rewritten = text.replace(/(^|[\s("'<=])((?:\.\/)?(?:\.\.\/)*)\.gitbook\/assets\//g, (match, before: string, prefix: string) => {
    if (prefix.replace(/^\.\//, '') !== up) return match; // not the zip's own assets folder
    changed = true;
    return `${before}${moved}.gitbook/assets/${dir}/`;
  });
  return changed ? new TextEncoder().encode(rewritten) : bytes;
}

/** The table of contents lines of an unpacked space, its paths under `dir`: its `SUMMARY.md`, else its pages by name. */
function zipSummary(entries: Map<string, Uint8Array>, dir: string): string[] {
  const summary = entries.get('SUMMARY.md');
  if (summary) {
    return decodeUtf8(summary)
      .text.split('\n')
      .filter((line) => /^\s*[*-]\s+\[/.test(line))
      .map((line) => line.replace(/\]\((?!https?:)([^)]+)\)/, (_m, target: string) => `](${dir}/${target.replace(/^\.\//, '')})`));
  }
  const pages = [...entries.keys()].filter((p) => /\.md$/i.test(p) && !p.startsWith('.gitbook/')).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return pages.map((p) => `* [${escapeTitle(markdownTitle(p.split('/').pop()!, decodeUtf8(entries.get(p)!).text))}](${dir}/${p})`);
}

function rank(path: string): number {
  return /(^|\/)readme\.md$/i.test(path) ? path.split('/').length - 1 : 100;
}

/** An archive whose every entry sits in one top-level folder (a zipped directory) is read from inside it. */
function withoutWrapper(entries: Map<string, Uint8Array>): Map<string, Uint8Array> {
  const tops = new Set([...entries.keys()].map((p) => (p.includes('/') ? p.split('/')[0]! : '')));
  if (tops.size !== 1 || tops.has('')) return entries;
  const [top] = tops;
  return new Map([...entries].map(([p, bytes]) => [p.slice(top!.length + 1), bytes]));
}

function toTree(files: Map<string, Uint8Array>): SourceTree {
  const tree: SourceTree = new Map();
  for (const [path, bytes] of files) tree.set(path, memoryEntry(bytes));
  return tree;
}

function stem(name: string): string {
  return name.replace(/\.[^.]*$/, '') || 'page';
}

function escapeTitle(title: string): string {
  return title.replace(/([[\]\\])/g, '\\$1');
}
