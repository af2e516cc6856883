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
import { docxFileToPage } from './docx-file.js';
import { NothingToImportError } from './errors.js';
import { htmlFileToPage } from './html-file.js';
import { DEFAULT_FILE_IMPORT_LIMITS, type FileImportLimits } from './limits.js';
import { markdownTitle } from './markdown-file.js';
import { safeSegment, uniquePath } from './paths.js';
import type { ConvertedFile, FileImportWarning, InputFile } from './types.js';
import { decodeUtf8 } from './utf8.js';
import { readZip } from './zip.js';

export type { InputFile, FileImportWarning } from './types.js';
export type { FileImportLimits } from './limits.js';
export { DEFAULT_FILE_IMPORT_LIMITS } from './limits.js';
export { FileImportError, ZipInvalidError, ZipTooLargeError, ZipUnsafePathError, DocxInvalidError, NothingToImportError } from './errors.js';

export interface FileImportResult {
  /** The files in GitBook format, for `importTree`. */
  tree: SourceTree;
  warnings: FileImportWarning[];
}

interface SummaryLine {
  title: string;
  path: string;
}

export async function filesToSourceTree(files: InputFile[], limits: FileImportLimits = DEFAULT_FILE_IMPORT_LIMITS): Promise<FileImportResult> {
  const inputs = files.filter((f) => f.bytes.byteLength > 0);
  if (inputs.length === 0) throw new NothingToImportError();
  const warnings: FileImportWarning[] = [];
  if (inputs.length === 1 && extension(inputs[0]!.name) === 'zip') {
    return { tree: toTree(withoutWrapper(readZip(inputs[0]!.name, inputs[0]!.bytes, limits))), warnings };
  }
  const out = new Map<string, Uint8Array>();
  const taken = new Set<string>(['summary.md', '.gitbook.yaml']);
  const pages: SummaryLine[] = [];
  const groups: { title: string; lines: string[] }[] = [];
  const writePage = (file: InputFile, page: ConvertedFile): void => {
    const path = uniquePath(`${stem(safeSegment(file.name))}.md`, taken);
    for (const [assetPath, bytes] of page.assets) out.set(assetPath, bytes);
    const front = page.description ? `---\ndescription: ${JSON.stringify(page.description)}\n---\n\n` : '';
    const body = page.markdown.trim() ? `\n${page.markdown.replace(/\n*$/, '\n')}` : '';
    out.set(path, new TextEncoder().encode(`${front}# ${page.title}\n${body}`));
    pages.push({ title: page.title, path });
  };
  for (const file of inputs) {
    const ext = extension(file.name);
    if (ext === 'md' || ext === 'markdown') {
      const { text, valid } = decodeUtf8(file.bytes);
      if (!valid) warnings.push({ code: 'FILE_IMPORT_INVALID_UTF8', file: file.name, message: `${file.name} is not valid UTF-8; its bytes are kept` });
      const path = uniquePath(`${stem(safeSegment(file.name))}.md`, taken);
      out.set(path, file.bytes);
      pages.push({ title: markdownTitle(file.name, text), path });
    } else if (ext === 'html' || ext === 'htm' || ext === 'xhtml') {
      const { text, valid } = decodeUtf8(file.bytes);
      if (!valid) warnings.push({ code: 'FILE_IMPORT_INVALID_UTF8', file: file.name, message: `${file.name} is not valid UTF-8; invalid bytes were replaced` });
      writePage(file, htmlFileToPage(file.name, text));
    } else if (ext === 'docx') {
      const page = await docxFileToPage(file.name, file.bytes);
      for (const message of page.messages) warnings.push({ code: 'FILE_IMPORT_DOCX_MESSAGE', file: file.name, message: `${file.name}: ${message}` });
      writePage(file, page);
    } else if (ext === 'zip') {
      const dir = uniquePath(stem(safeSegment(file.name)), taken);
      const entries = withoutWrapper(readZip(file.name, file.bytes, limits));
      for (const [path, bytes] of entries) out.set(`${dir}/${path}`, bytes);
      groups.push({ title: dir, lines: zipSummary(entries, dir) });
    } else {
      const path = uniquePath(`.gitbook/assets/${safeSegment(file.name)}`, taken);
      out.set(path, file.bytes);
      warnings.push({
        code: 'FILE_IMPORT_UNSUPPORTED_TYPE',
        file: file.name,
        message: `${file.name}: no page is made of .${ext || '(no extension)'} files; it is kept as a space file`,
      });
    }
  }
  const summary = ['# Table of contents', '', ...pages.map((p) => `* [${escapeTitle(p.title)}](${p.path})`)];
  for (const group of groups) summary.push('', `## ${group.title}`, '', ...group.lines);
  out.set('SUMMARY.md', new TextEncoder().encode(summary.join('\n') + '\n'));
  return { tree: toTree(out), warnings };
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

function extension(name: string): string {
  const m = /\.([^./\\]+)$/.exec(name);
  return m ? m[1]!.toLowerCase() : '';
}

function stem(name: string): string {
  return name.replace(/\.[^.]*$/, '') || 'page';
}

function escapeTitle(title: string): string {
  return title.replace(/([[\]\\])/g, '\\$1');
}
