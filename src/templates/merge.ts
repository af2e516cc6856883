/**
 * A template's pages and files added to a space's content without touching what is there:
 * - an empty space (no page, no file) takes the template as it is: its page tree, paths and SUMMARY layout;
 * - otherwise the template's top-level pages are appended at the root after the existing pages, a slug already
 *   used at the root is made unique by the revision builder (`-2`, …), the template's files in the repository go
 *   under a folder no file of the space uses (`runbook/`, `runbook-2/`, …), a space file whose name is taken gets a
 *   free one (`logo-2.svg`; `relinkFiles` then fixes the links to it); the space's own pages and files are kept
 *   exactly as they were.
 * Every template page and file gets a new id (a template applied twice never collides with itself), and the links
 * between them (page references by id) follow.
 */
import { posix } from 'node:path';
import type { EditablePage } from '../change-requests/tree.js';
import { newId } from '../ids.js';
import type { FileRecord, Json, JsonObject } from '../store/index.js';
import type { TemplateContent } from './content.js';

export interface SpaceContent {
  pages: EditablePage[];
  files: FileRecord[];
  data: JsonObject;
}

export interface MergedContent extends SpaceContent {
  /** The repository folder of the template's pages ('' in an empty space). */
  folder: string;
  /** Ids of the top-level pages the template added, in order. */
  addedPages: string[];
  addedFiles: string[];
}

export function isEmptyContent(content: SpaceContent | null): boolean {
  return !content || (content.pages.length === 0 && content.files.length === 0);
}

/** Repository paths the space's pages and files take (`data.git.path`, file paths). */
function takenGitPaths(content: SpaceContent | null): string[] {
  const out: string[] = [];
  const walk = (list: EditablePage[]) =>
    list.forEach((p) => {
      const git = (p.data as { git?: { path?: unknown } }).git;
      if (git && typeof git.path === 'string') out.push(git.path);
      walk(p.children);
    });
  walk(content?.pages ?? []);
  for (const f of content?.files ?? []) if (f.path) out.push(f.path);
  return out;
}

/** A folder of the repository no page or file of the space uses: `<name>`, else `<name>-2`, … */
function freeFolder(content: SpaceContent | null, name: string): string {
  const taken = takenGitPaths(content);
  for (let n = 1; ; n++) {
    const folder = n === 1 ? name : `${name}-${n}`;
    if (!taken.some((p) => p === folder || p.startsWith(`${folder}/`))) return folder;
  }
}

export function mergeTemplate(base: SpaceContent | null, template: TemplateContent, options: { folder?: string } = {}): MergedContent {
  const empty = isEmptyContent(base);
  // In a space with content, the template's pages keep their layout under a folder of their own: the links between
  // them stay as written, and nothing of the space's is overwritten.
  const folder = empty ? '' : freeFolder(base, (options.folder ?? 'template').replace(/[^A-Za-z0-9._-]+/g, '-'));
  const ids = new Map<string, string>();
  const claim = (old: string) => {
    const id = newId();
    ids.set(old, id);
    return id;
  };
  const walkIds = (list: EditablePage[]) => list.forEach((p) => (claim(p.id), walkIds(p.children)));
  walkIds(template.pages);
  for (const f of template.files) claim(f.id);

  const remap = (value: Json): Json => remapIds(value, ids);
  const page = (p: EditablePage): EditablePage => {
    const data = remap(p.data) as JsonObject;
    // The template's file layout (paths, and blob ids that name the bytes the store holds) is kept, under its folder.
    const git = data.git as { path?: unknown } | undefined;
    if (!empty && git && typeof git.path === 'string') data.git = { ...(git as JsonObject), path: `${folder}/${git.path}` };
    return {
      id: ids.get(p.id)!,
      kind: p.kind,
      title: p.title,
      slug: p.slug,
      path: empty ? p.path : null,
      data,
      bodyHash: p.bodyHash,
      children: p.children.map(page),
    };
  };
  const added = template.pages.map(page);

  const existingPages = base?.pages ?? [];
  if (!empty) {
    const used = new Set(existingPages.map((p) => p.slug).filter((s): s is string => !!s));
    for (const p of added) {
      // The template's home page (slug '') is an ordinary page here: the space has its own first page.
      if (p.slug !== null && (p.slug === '' || used.has(p.slug))) p.slug = null;
      if (p.slug) used.add(p.slug);
    }
  }

  const { files, addedFiles } = mergeFiles(base?.files ?? [], template.files, ids);

  return {
    folder,
    pages: [...existingPages, ...added],
    files,
    data: empty ? freshRevisionData(template.data) : (base?.data ?? {}),
    addedPages: added.map((p) => p.id),
    addedFiles,
  };
}

/** A JSON value with every `pageId`/`fileId` member renamed through `ids` (unknown ids are kept). */
function remapIds(value: Json, ids: Map<string, string>): Json {
  if (Array.isArray(value)) return value.map((v) => remapIds(v, ids));
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'pageId' || k === 'fileId') && typeof v === 'string') out[k] = ids.get(v) ?? v;
      else out[k] = remapIds(v, ids);
    }
    return out;
  }
  return value;
}

/** The space's files followed by the template's, renamed (`name-2.ext`, …) where their path is already taken. */
function mergeFiles(existingFiles: FileRecord[], templateFiles: FileRecord[], ids: Map<string, string>): { files: FileRecord[]; addedFiles: string[] } {
  const takenPaths = new Set(existingFiles.map((f) => f.path ?? `.gitbook/assets/${f.name}`));
  const files: FileRecord[] = [...existingFiles];
  const addedFiles: string[] = [];
  for (const f of templateFiles) {
    let name = f.name;
    let path = f.path ?? `.gitbook/assets/${f.name}`;
    for (let n = 2; takenPaths.has(path); n++) {
      const dot = f.name.lastIndexOf('.');
      name = dot > 0 ? `${f.name.slice(0, dot)}-${n}${f.name.slice(dot)}` : `${f.name}-${n}`;
      path = `${path.slice(0, path.length - f.name.length)}${name}`;
    }
    takenPaths.add(path);
    const data = remapIds(f.data, ids) as JsonObject;
    const id = ids.get(f.id)!;
    addedFiles.push(id);
    // The git blob id names the file's bytes (export finds them by it); the path is the file's place in this space.
    files.push({ ...f, id, name, path, git: f.git ? { ...f.git, path } : null, data, position: files.length });
  }
  return { files, addedFiles };
}

/** The template's SUMMARY layout, with nothing that claims a file already exists in the space's repository. */
function freshRevisionData(data: JsonObject): JsonObject {
  const model = data.model as JsonObject | undefined;
  const summary = model?.summary as JsonObject | undefined;
  if (!model || !summary) return data;
  const rest: JsonObject = { ...summary, present: false, fingerprint: '' };
  delete rest.git;
  return { ...data, model: { ...model, summary: rest } };
}

/**
 * Links from the template's pages to space files whose place changed (the pages moved under a folder, a file was
 * renamed): each page's markdown is rewritten with the new relative destinations (`encode` of the page codec, in the
 * parse pool), and its references follow.
 */
export async function relinkFiles(
  merged: MergedContent,
  io: { read(hash: string): Promise<string>; write(text: string): Promise<string>; encode(text: string, rewrites: Map<string, string>): Promise<string> },
): Promise<void> {
  const fileById = new Map(merged.files.map((f) => [f.id, f]));
  const added = new Set(merged.addedPages);
  const visit = async (p: EditablePage, inTemplate: boolean): Promise<void> => {
    const mine = inTemplate || added.has(p.id);
    const data = p.data as { git?: { path?: string }; references?: Array<{ url: string; target: { kind: string; fileId?: string } }> };
    if (mine && p.bodyHash && data.git?.path && Array.isArray(data.references)) {
      const dir = posix.dirname(data.git.path);
      const rewrites = new Map<string, string>();
      for (const ref of data.references) {
        const file = ref.target.kind === 'file' && ref.target.fileId ? fileById.get(ref.target.fileId) : undefined;
        if (!file?.path) continue;
        const [bare, fragment] = ref.url.split('#', 2) as [string, string | undefined];
        const want = posix.relative(dir === '.' ? '' : dir, file.path);
        if (posix.normalize(posix.join(dir, decodeURI(bare))) !== file.path) rewrites.set(ref.url, fragment === undefined ? want : `${want}#${fragment}`);
      }
      if (rewrites.size) {
        p.bodyHash = await io.write(await io.encode(await io.read(p.bodyHash), rewrites));
        p.data = { ...p.data, references: data.references.map((r) => ({ ...r, url: rewrites.get(r.url) ?? r.url })) } as JsonObject;
      }
    }
    for (const c of p.children) await visit(c, mine);
  };
  for (const p of merged.pages) await visit(p, false);
}
