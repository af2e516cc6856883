/**
 * RevisionModel (the converter's model) ⇄ store records (pages, files, revision data). The records are made by
 * the revision builder (src/revision/builder.ts), like those of every other pipeline.
 *
 * - A page's `id`, `kind`, `title`, `slug`, `path` are columns; its `markdown` is the body blob; every other
 *   model field goes into `data` (JSON). `computed` pages are stored as `group` with `data.modelKind`.
 * - A file's bytes are a blob (reused by hash when the git blob did not change); `role`, `referenced` go in `data`.
 * - Revision `data` holds `{ model: { version, config, summary } }`.
 */
import { createHash } from 'node:crypto';
import { gitBlobOid, importTree, type FileModel, type PageModel, type RevisionModel } from '../format/index.js';
import { buildRevision, type BlobSource, type FileNode, type PageNode } from './builder.js';
import type { FileInput, FileRecord, JsonObject, PageInput, PageRecord, RevisionInput, Store } from '../store/index.js';

const PAGE_COLUMNS = new Set(['id', 'kind', 'title', 'slug', 'path', 'children', 'markdown']);

/**
 * A text page's record keeps, in `data.gitBlobSha256`, the sha256 of the git blob it came from (`{ oid, sha256 }`:
 * a fact about that blob, true whatever happens to the page). Bodies are stored by sha256, so a page whose
 * `bodyHash` is that sha256 holds exactly its git blob's bytes: its markdown is the blob's text, unedited, and an
 * export need not read it (`loadRevisionModel(…, { bodies: 'edited' })`). A change request that edits the page
 * keeps `data` but changes the body: the hashes differ and the page reads as edited, as it is.
 */
const BLOB_SHA256 = 'gitBlobSha256';
type BlobSha256 = { oid: string; sha256: string };
/** The keys of a page record's `data` that are the record's, not the model page's. */
const RECORD_KEYS: ReadonlySet<string> = new Set(['modelKind', 'markdownNull', BLOB_SHA256]);

function blobSha256Of(data: unknown): BlobSha256 | undefined {
  const v = (data as Record<string, unknown> | null)?.[BLOB_SHA256] as Partial<BlobSha256> | undefined;
  return typeof v?.oid === 'string' && typeof v.sha256 === 'string' ? { oid: v.oid, sha256: v.sha256 } : undefined;
}

/**
 * The sha256 of git blobs (by oid) of the revisions of a space last loaded or written in this process: an incremental
 * import stores a reused page by its previous body's hash without reading it, and keeps its blob's sha256 from here
 * (its previous record, loaded by the same import). Per space (never shared across spaces), for the most recent
 * spaces only: a miss only means an export reads that page's body.
 */
const blobShas = new Map<string, Map<string, string>>();
const BLOB_SHA_SPACES = 16;

function spaceBlobShas(spaceId: string): Map<string, string> {
  let m = blobShas.get(spaceId);
  if (m) blobShas.delete(spaceId);
  else m = new Map();
  blobShas.set(spaceId, m);
  while (blobShas.size > BLOB_SHA_SPACES) blobShas.delete(blobShas.keys().next().value!);
  return m;
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function toJson(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value ?? {})) as JsonObject;
}

/**
 * `value` (a model's value) is the JSON value `json` once written as JSON (`toJson(value)` would equal `json`): plain
 * objects (keys of undefined values left out, as JSON.stringify does), arrays, strings, finite numbers, booleans,
 * null. Anything JSON would change (a Date, NaN, an undefined array element) counts as different.
 */
function sameAsJson(value: unknown, json: unknown): boolean {
  if (value === json) return typeof value !== 'number' || Number.isFinite(value);
  if (typeof value !== 'object' || value === null || typeof json !== 'object' || json === null) return false;
  if (Array.isArray(value)) {
    if (!Array.isArray(json) || value.length !== json.length) return false;
    for (let i = 0; i < value.length; i++) if (!sameAsJson(value[i], json[i])) return false;
    return true;
  }
  if (Array.isArray(json)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  let n = 0;
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (!Object.hasOwn(json, k) || !sameAsJson(v, (json as Record<string, unknown>)[k])) return false;
    n++;
  }
  return n === Object.keys(json).length;
}

/**
 * `rawBytes` gives the bytes of pages kept raw (`DocumentPage.raw`: not readable as a page): they are stored as the
 * page body, as they are, so nothing of the file is lost and export can write it back unchanged.
 * `base`: a page whose data is the stored page's (same id) takes the stored data object (no JSON round trip).
 */
function pageNode(
  page: PageModel,
  encoder: InstanceType<typeof TextEncoder>,
  shas: Map<string, string>,
  rawBytes?: Map<string, BlobSource>,
  textBodies?: Map<string, BlobSource>,
  base?: ReadonlyMap<string, PageRecord>,
): PageNode {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(page)) if (!PAGE_COLUMNS.has(k) && v !== undefined) rest[k] = v;
  const kind = page.kind === 'computed' ? 'group' : page.kind;
  if (page.kind === 'computed') rest.modelKind = 'computed';
  const stored = base?.get(page.id)?.data;
  let body: BlobSource | undefined;
  if (page.kind === 'document') {
    if (page.markdown !== null) {
      body = textBodies?.get(page.id) ?? encoder.encode(page.markdown);
      if (page.git) {
        // The sha256 of the page's git blob: as known (this space's records), or the body's own when the body is that
        // blob's bytes.
        const oid = page.git.oid;
        let sha = shas.get(oid);
        const fact = blobSha256Of(stored);
        if (sha === undefined && fact?.oid === oid) shas.set(oid, (sha = fact.sha256));
        if (sha === undefined && body instanceof Uint8Array && gitBlobOid(body) === oid) shas.set(oid, (sha = sha256Hex(body)));
        if (sha !== undefined) rest[BLOB_SHA256] = { oid, sha256: sha };
      }
    } else {
      rest.markdownNull = true;
      body = rawBytes?.get(page.id);
    }
  }
  const input: PageNode = {
    id: page.id,
    kind,
    title: page.title,
    slug: page.slug,
    data: stored !== undefined && sameAsJson(rest, stored) ? stored : toJson(rest),
    children: page.children.map((c) => pageNode(c, encoder, shas, rawBytes, textBodies, base)),
  };
  if (page.kind === 'document') {
    input.path = page.path;
    if (body) input.body = body;
  }
  return input;
}

/**
 * `bytes` gives each file's content: bytes, or the hash of a stored blob. A file without content is stored
 * without a blob (export then leaves it untouched in the target tree).
 */
function fileNode(file: FileModel, bytes: BlobSource | undefined): FileNode {
  const input: FileNode = {
    id: file.id,
    name: file.name,
    path: file.path,
    contentType: file.contentType,
    size: file.size ?? (bytes instanceof Uint8Array ? bytes.byteLength : 0),
    data: toJson({ role: file.role, referenced: file.referenced, ...(file.size !== undefined ? { modelSize: file.size } : {}) }),
  };
  if (file.git) input.git = { oid: file.git.oid, path: file.git.path };
  if (bytes) input.bytes = bytes;
  return input;
}

/** Equality of two JSON values (object keys in any order: jsonb does not keep the order they were written in). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const hashOf = (body: Uint8Array | { hash: string } | undefined): string | null | undefined =>
  body === undefined ? null : body instanceof Uint8Array ? undefined : body.hash;

/** The page record would store exactly what the input says (a body given as bytes counts as different). */
function samePage(input: PageInput, record: PageRecord): boolean {
  const hash = hashOf(input.body);
  return (
    hash !== undefined &&
    hash === record.bodyHash &&
    input.kind === record.kind &&
    input.title === record.title &&
    (input.slug ?? null) === record.slug &&
    (input.path ?? null) === record.path &&
    jsonEqual(input.data ?? {}, record.data)
  );
}

function sameFile(input: FileInput, record: FileRecord): boolean {
  const hash = hashOf(input.bytes);
  return (
    hash !== undefined &&
    hash === record.hash &&
    input.name === record.name &&
    (input.path ?? null) === record.path &&
    (input.contentType ?? null) === record.contentType &&
    input.size === record.size &&
    jsonEqual(input.git ?? null, record.git) &&
    jsonEqual(input.data ?? {}, record.data)
  );
}

/** The stored records of a revision, by id: what {@link modelToRevisionInput} compares with for its `base`. */
export interface BaseRecords {
  revisionId: string;
  pages: ReadonlyMap<string, PageRecord>;
  files: ReadonlyMap<string, FileRecord>;
}

/**
 * Marks the pages and files that are exactly as in `base` (`fromBase`: the store copies them inside the database)
 * and returns how many were marked.
 */
function markFromBase(input: RevisionInput, base: BaseRecords): { pages: number; files: number } {
  let pages = 0;
  let files = 0;
  const stack = [...input.pages];
  while (stack.length > 0) {
    const page = stack.pop()!;
    const record = base.pages.get(page.id);
    if (record && samePage(page, record)) {
      page.fromBase = true;
      pages++;
    }
    if (page.children) stack.push(...page.children);
  }
  for (const file of input.files) {
    const record = base.files.get(file.id);
    if (record && sameFile(file, record)) {
      file.fromBase = true;
      files++;
    }
  }
  if (pages + files > 0) input.base = base.revisionId;
  return { pages, files };
}

/**
 * `textBodies` gives, by page id, the stored body of pages whose markdown is exactly that blob's text (pages an
 * incremental import reused without reading them): stored by hash, never encoded and hashed again.
 * `base`: the previous revision's records; the pages and files that did not change are marked `fromBase`, so the
 * store copies their rows instead of receiving them again.
 */
export function modelToRevisionInput(
  model: RevisionModel,
  options: Omit<RevisionInput, 'pages' | 'files' | 'data' | 'base'> & {
    fileBytes: Map<string, BlobSource>;
    rawPageBytes?: Map<string, BlobSource>;
    textBodies?: Map<string, BlobSource>;
    base?: BaseRecords;
  },
): RevisionInput {
  const { fileBytes, rawPageBytes, textBodies, base, ...rest } = options;
  const encoder = new TextEncoder();
  const shas = spaceBlobShas(rest.spaceId);
  const input = buildRevision(
    {
      data: toJson({ model: { version: model.version, config: model.config, summary: model.summary } }),
      pages: model.pages.map((p) => pageNode(p, encoder, shas, rawPageBytes, textBodies, base?.pages)),
      files: model.files.map((f) => fileNode(f, fileBytes.get(f.id))),
    },
    rest,
  );
  if (base) markFromBase(input, base);
  return input;
}

export interface LoadedRevision {
  /** The space the revision belongs to. */
  spaceId: string;
  model: RevisionModel;
  /** fileId → blob hash */
  fileHashes: Map<string, string>;
  /** git blob oid → blob hash (files and page bodies imported from git) */
  hashByGitOid: Map<string, string>;
  /** page id → hash of its stored body (text pages with a body) */
  bodyHashes: Map<string, string>;
  /** The stored records, by id (a base for {@link modelToRevisionInput}). */
  records: BaseRecords;
  /**
   * With `bodies: 'edited'`: the text pages whose body was not read because it is exactly their git blob's bytes
   * (`git.oid`); their markdown is left empty (''). Export reads their text from the blob when it must write them.
   */
  markdownInSource: Set<string>;
}

export interface LoadOptions {
  /**
   * false: the page bodies are not read; the markdown of every text page is left empty (''), and `bodyHashes` says
   * which blob it is. Only for callers that read no markdown: the incremental import (its `previous`: a reused page
   * is stored with the previous body by hash, `textBodies`) and export's sync base (its git paths only).
   * 'edited': only the bodies of text pages not known to be exactly their git blob (edited, new, or whose blob's
   * sha256 is not recorded); the others are left empty ('') and listed in `markdownInSource`. For export. Default true.
   */
  bodies?: boolean | 'edited';
}

type PageData = { git?: { oid?: string }; markdownNull?: boolean };

/** Version, config and SUMMARY of the revision; the converter's defaults for one that did not come from it. */
async function revisionMeta(data: JsonObject): Promise<Pick<RevisionModel, 'version' | 'config' | 'summary'>> {
  const meta = (data as { model?: Pick<RevisionModel, 'version' | 'config' | 'summary'> }).model;
  if (meta) return meta;
  const empty = (await importTree(new Map())).revision;
  return { version: empty.version, config: empty.config, summary: empty.summary };
}

function flattenRecords(list: PageRecord[], out: PageRecord[] = []): PageRecord[] {
  for (const p of list) {
    out.push(p);
    flattenRecords(p.children, out);
  }
  return out;
}

/** Decoded texts of the given body blobs, read once each, 500 to a query (a query per body cost ~0.5 s on a 345-page space). */
export async function readTexts(store: Store, hashes: string[]): Promise<Map<string, string>> {
  // A page's markdown keeps a leading BOM (the importer decodes with ignoreBOM), so the body read back must too.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const texts = new Map<string, string>();
  for (let i = 0; i < hashes.length; i += 500) {
    const chunk = hashes.slice(i, i + 500);
    const got = await store.blobs.getMany(chunk);
    for (const h of chunk) texts.set(h, got.has(h) ? decoder.decode(got.get(h)!) : '');
  }
  return texts;
}

interface PageBodies {
  bodies: Map<string, string>;
  bodyHashes: Map<string, string>;
  markdownInSource: Set<string>;
}

/** The markdown of the text pages (as `readBodies` asks), and the body blob of each page by its git oid. */
async function readPageBodies(
  store: Store,
  spaceId: string,
  flat: PageRecord[],
  readBodies: NonNullable<LoadOptions['bodies']>,
  hashByGitOid: Map<string, string>,
): Promise<PageBodies> {
  const withBody = flat.filter((p) => p.bodyHash);
  // A raw page's body is its file's bytes, not text: it is never decoded, only found by git oid (export).
  for (const p of withBody) {
    const git = (p.data as PageData).git;
    if (git?.oid && (p.data as PageData).markdownNull === true) hashByGitOid.set(git.oid, p.bodyHash as string);
  }
  const textBodies = withBody.filter((p) => (p.data as PageData).markdownNull !== true);
  // The recorded sha256 of each page's git blob: a page whose body has that hash is its blob's text, unedited.
  const shas = spaceBlobShas(spaceId);
  const markdownInSource = new Set<string>();
  for (const p of textBodies) {
    const fact = blobSha256Of(p.data);
    const oid = (p.data as PageData).git?.oid;
    if (!fact || fact.oid !== oid) continue;
    shas.set(fact.oid, fact.sha256);
    if (readBodies === 'edited' && fact.sha256 === p.bodyHash) markdownInSource.add(p.id);
  }
  // Bodies are content-addressed: read each distinct blob once.
  const distinct = readBodies ? [...new Set(textBodies.filter((p) => !markdownInSource.has(p.id)).map((p) => p.bodyHash as string))] : [];
  const texts = await readTexts(store, distinct);
  const bodies = new Map<string, string>();
  const bodyHashes = new Map<string, string>();
  for (const p of textBodies) {
    bodyHashes.set(p.id, p.bodyHash as string);
    bodies.set(p.id, texts.get(p.bodyHash as string) ?? '');
    const git = (p.data as PageData).git;
    if (git?.oid) hashByGitOid.set(git.oid, p.bodyHash as string);
  }
  return { bodies, bodyHashes, markdownInSource };
}

function pageToModel(p: PageRecord, bodies: Map<string, string>): PageModel {
  const stored = p.data as Record<string, unknown>;
  const modelKind = stored.modelKind as string | undefined;
  const markdownNull = stored.markdownNull === true;
  const document = modelKind !== 'computed' && p.kind === 'document';
  const children = p.children.map((c) => pageToModel(c, bodies));
  // One object filled key by key (the stored data without the record's own keys), its keys in the order the spreads
  // `{ ...defaults, ...data, id, title, slug, children, kind, … }` gave. Those spreads, after deleting the record's
  // keys from a copy, allocated 6 KB and took 60 µs per page (30 MB of garbage per loaded 5,000-page revision); key by
  // key, 0.6 KB and 7 µs.
  // Pages written through the API (change requests) carry fewer fields than imported ones: defaults make them whole
  // (an empty `derived` fingerprint marks them as edited, so export writes them).
  const page: Record<string, unknown> = document
    ? { titleSource: 'heading', hidden: false, noIndex: false, frontMatter: null, frontMatterValid: true, derived: '', references: [] }
    : {};
  for (const key of Object.keys(stored)) if (!RECORD_KEYS.has(key)) page[key] = stored[key];
  page.id = p.id;
  page.title = p.title;
  page.slug = p.slug ?? '';
  page.children = children;
  if (modelKind === 'computed') page.kind = 'computed';
  else if (document) {
    page.kind = 'document';
    page.path = p.path ?? '';
    page.markdown = markdownNull ? null : (bodies.get(p.id) ?? '');
  } else page.kind = p.kind;
  return page as unknown as PageModel;
}

function fileToModel(f: FileRecord, fileHashes: Map<string, string>, hashByGitOid: Map<string, string>): FileModel {
  if (f.hash) fileHashes.set(f.id, f.hash);
  if (f.hash && f.git?.oid) hashByGitOid.set(f.git.oid, f.hash);
  const data = f.data as { role?: FileModel['role']; referenced?: boolean; modelSize?: number };
  const file: FileModel = {
    id: f.id,
    name: f.name,
    path: f.path ?? f.name,
    contentType: f.contentType ?? 'application/octet-stream',
    role: data.role ?? 'asset',
    referenced: data.referenced ?? true,
  };
  if (data.modelSize !== undefined) file.size = data.modelSize;
  if (f.git) file.git = { oid: f.git.oid, path: f.git.path };
  return file;
}

/**
 * The revision as a model, or null when the revision is unknown. A revision that did not come from the
 * converter (pages written through the API only) gets the converter's defaults for config and SUMMARY, so it
 * exports as a new tree instead of as nothing.
 */
export async function loadRevisionModel(store: Store, revisionId: string, options: LoadOptions = {}): Promise<LoadedRevision | null> {
  const readBodies = options.bodies ?? true;
  const revision = await store.revisions.get(revisionId);
  if (!revision) return null;
  const meta = await revisionMeta(revision.data);
  const [pages, files] = await Promise.all([store.revisions.pages(revisionId), store.revisions.files(revisionId)]);
  const hashByGitOid = new Map<string, string>();
  const flat = flattenRecords(pages);
  const { bodies, bodyHashes, markdownInSource } = await readPageBodies(store, revision.spaceId, flat, readBodies, hashByGitOid);
  const fileHashes = new Map<string, string>();
  const model: RevisionModel = {
    ...meta,
    pages: pages.map((p) => pageToModel(p, bodies)),
    files: files.map((f) => fileToModel(f, fileHashes, hashByGitOid)),
  };
  return {
    spaceId: revision.spaceId,
    model,
    fileHashes,
    hashByGitOid,
    bodyHashes,
    records: { revisionId, pages: new Map(flat.map((p) => [p.id, p])), files: new Map(files.map((f) => [f.id, f])) },
    markdownInSource,
  };
}

/** Flattens the page tree (documents, groups, links, computed), depth first. */
export function flattenPages(pages: PageModel[]): PageModel[] {
  const out: PageModel[] = [];
  const walk = (list: PageModel[]) => {
    for (const p of list) {
      out.push(p);
      walk(p.children);
    }
  };
  walk(pages);
  return out;
}
