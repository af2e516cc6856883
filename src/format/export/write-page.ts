import { BlobUnavailableError, FormatWarningCodes, PageTooComplexError, warning } from '../errors.js';
import type { DocumentPage } from '../model.js';
import { fieldsFingerprint, type PageFields } from '../page-codec.js';
import type { PageCodecRunner } from '../page-codec-runner.js';
import { formatReference, resolveReference, type ReferenceIndex } from '../resolve-reference.js';
import { gitBlobOid } from '../source-tree.js';
import type { ExportContext } from './context.js';

const encoder = new TextEncoder();

/** The page fields the model holds, as the page codec writes them. */
export function modelFields(page: DocumentPage): PageFields {
  const f: PageFields = { hidden: page.hidden, noIndex: page.noIndex, frontMatter: page.frontMatter, frontMatterValid: page.frontMatterValid };
  if (page.titleSource === 'heading') f.title = page.title;
  if (page.description !== undefined) f.description = page.description;
  if (page.icon !== undefined) f.icon = page.icon;
  if (page.cover !== undefined) {
    const c: NonNullable<PageFields['cover']> = { ref: page.cover.ref };
    if (page.cover.y !== undefined) c.y = page.cover.y;
    if (page.cover.height !== undefined) c.height = page.cover.height;
    f.cover = c;
  }
  if (page.layout !== undefined) f.layout = page.layout;
  if (page.metaLinks !== undefined) f.metaLinks = page.metaLinks;
  return f;
}

/** How one page is written: the codec, the space files' paths, the reference indexes of the exported and imported layout. */
export interface PageWriter {
  codec: PageCodecRunner;
  filePaths: Map<string, string>;
  index: ReferenceIndex;
  sourceIndex: ReferenceIndex;
}

type WriteContext = Pick<ExportContext, 'target' | 'options' | 'warnings' | 'changes' | 'paths' | 'referencedNow' | 'blobs'>;

/** A page without markdown (kept raw, a symbolic link): its bytes are copied when it moves or when the tree lacks them. */
async function copyRawPage(ctx: WriteContext, page: DocumentPage, git: NonNullable<DocumentPage['git']>, path: string): Promise<void> {
  const { target, options, changes } = ctx;
  if (path !== git.path) {
    // Moved (now, or by an earlier export: then its file already holds the bytes).
    if (target.get(path)?.oid !== git.oid) {
      const from = target.get(git.path)?.oid === git.oid ? git.path : ctx.blobs.findByOid(git.oid);
      const bytes = from !== undefined ? await target.get(from)!.read() : options.readBlob ? await options.readBlob(git.oid) : null;
      if (!bytes) throw new BlobUnavailableError(git.oid, git.path);
      changes.set(path, bytes);
    }
    page.git = { oid: git.oid, path };
  } else if (page.raw && target.get(path)?.oid !== git.oid) {
    // A page kept as raw bytes, into a tree that lacks them (a new repository): its bytes, unchanged.
    const bytes = options.readBlob ? await options.readBlob(git.oid).catch(() => null) : null;
    if (!bytes) throw new BlobUnavailableError(git.oid, git.path);
    changes.set(path, bytes);
  }
}

/** The page's links whose target moved (or that the exported layout names differently), with their new text. */
function linkRewrites(page: DocumentPage, path: string, paths: Map<string, string>, writer: PageWriter): Map<string, string> {
  const rewrites = new Map<string, string>();
  for (const r of page.references) {
    let targetPath: string | undefined;
    let anchor: string | undefined;
    if (r.target.kind === 'page') {
      targetPath = paths.get(r.target.pageId);
      anchor = r.target.anchor;
    } else if (r.target.kind === 'file') targetPath = writer.filePaths.get(r.target.fileId);
    if (targetPath === undefined) continue;
    const now = resolveReference(r.url, path, writer.index).target;
    const same =
      (now.kind === 'page' && r.target.kind === 'page' && now.pageId === r.target.pageId) ||
      (now.kind === 'file' && r.target.kind === 'file' && now.fileId === r.target.fileId);
    if (!same) rewrites.set(r.url, formatReference(r.url, path, targetPath, anchor));
  }
  return rewrites;
}

interface PageChanges {
  edited: boolean;
  fields: PageFields;
  fieldsChanged: boolean;
  rewrites: Map<string, string>;
}

/** The page's new text: an edited page as a minimal diff, otherwise the changed fields and links written into it. */
async function encodePage(ctx: WriteContext, page: DocumentPage, codec: PageCodecRunner, text: string, c: PageChanges): Promise<string> {
  let out = text;
  if (c.edited) {
    // Changed page: a minimal diff against the imported blob, changed blocks in GitBook's current
    // style. Without a readable source blob (or for a new page) the whole page is written that way.
    const source = page.git ? await ctx.blobs.sourceText(page.git) : undefined;
    const wanted = c.fieldsChanged ? c.fields : null;
    out = source !== undefined ? await codec.encode(out, wanted, c.rewrites, source) : await codec.encode(await codec.serializeNew(out), wanted, c.rewrites);
  } else if (c.fieldsChanged || c.rewrites.size > 0) out = await codec.encode(out, c.fields, c.rewrites);
  if (ctx.options.reserialize) out = await codec.reserialize(out);
  return out;
}

function tooComplexWarning(path: string, err: PageTooComplexError) {
  return err.budget === 'operation'
    ? warning(
        FormatWarningCodes.PARSE_BUDGET_EXHAUSTED,
        `${path} was not rewritten: the export reached its parse ${err.data.kind === 'deadline' ? 'deadline' : 'budget'}; written as it is, without the changes of fields or links`,
        { severity: 'error', path, data: { ...err.data } },
      )
    : warning(
        FormatWarningCodes.PAGE_TOO_COMPLEX,
        `${path} is too complex to parse (over the ${err.budget} budget); written as it is, without the changes of fields or links`,
        { severity: 'error', path, data: { ...err.data } },
      );
}

/**
 * One page of the phase "pages": unchanged bytes are kept; an edited page is written as a minimal diff of its imported
 * blob; changed fields and links whose target moved are rewritten; a page without markdown (kept raw, a symbolic
 * link) is copied when it moves. A page too complex for the codec's budget is written as it is, with a warning.
 */
export async function writePage(ctx: WriteContext, page: DocumentPage, writer: PageWriter): Promise<void> {
  const { target, options, warnings, changes, paths, referencedNow } = ctx;
  const { codec, sourceIndex } = writer;
  const path = paths.get(page.id)!;
  // A page whose markdown was not loaded is its git blob's text (`options.markdownInSource`): unedited.
  const inSource = page.markdown !== null && page.git !== undefined && options.markdownInSource?.has(page.id) === true;
  // A page whose markdown is not its imported blob was edited (or is new): its references are
  // re-derived from the text, so removed uses free their assets and new links get rewritten.
  const edited = !inSource && page.markdown !== null && (!page.git || gitBlobOid(encoder.encode(page.markdown)) !== page.git.oid);
  // A page too complex to parse or write within the budget is written as it is (never altered).
  let tooComplex: PageTooComplexError | null = null;
  const complex = (err: unknown): null => {
    if (!(err instanceof PageTooComplexError)) throw err;
    tooComplex = err;
    return null;
  };
  if (edited) {
    const from = page.git?.path ?? path;
    const decoded = await codec.decode(page.markdown!).catch(complex);
    if (decoded) page.references = decoded.urls.map((url) => ({ url, target: resolveReference(url, from, sourceIndex).target }));
  }
  for (const r of page.references) if (r.target.kind === 'file') referencedNow.add(r.target.fileId);
  if (page.cover?.fileId) referencedNow.add(page.cover.fileId);
  if (page.markdown === null) {
    if (page.git) return copyRawPage(ctx, page, page.git, path);
    page.markdown = `# ${page.title}\n`;
  }
  const fields = modelFields(page);
  // The page's new `derived` too (the fields do not change below): computed once per page, not twice (each call
  // allocates some 4 KB; twice per page was a fifth of what a one-page export of a 5,000-page space allocated).
  const fingerprint = fieldsFingerprint(fields);
  const fieldsChanged = fingerprint !== page.derived;
  const rewrites = linkRewrites(page, path, paths, writer);
  if (inSource) {
    const git = page.git!;
    if (!fieldsChanged && rewrites.size === 0 && !options.reserialize && target.get(path)?.oid === git.oid) {
      // Unchanged, and already there: nothing to write, nothing to read.
      page.derived = fingerprint;
      page.git = { oid: git.oid, path };
      return;
    }
    const source = await ctx.blobs.sourceText(git);
    if (source === undefined) throw new BlobUnavailableError(git.oid, git.path);
    page.markdown = source;
  }
  let text = page.markdown;
  if (tooComplex === null) text = (await encodePage(ctx, page, codec, text, { edited, fields, fieldsChanged, rewrites }).catch(complex)) ?? text;
  if (tooComplex !== null) {
    warnings.push(tooComplexWarning(path, tooComplex));
    rewrites.clear();
  }
  if (rewrites.size > 0) page.references = page.references.map((r) => (rewrites.has(r.url) ? { ...r, url: rewrites.get(r.url)! } : r));
  const bytes = encoder.encode(text);
  const oid = gitBlobOid(bytes);
  if (target.get(path)?.oid !== oid) changes.set(path, bytes);
  page.markdown = text;
  page.derived = fingerprint;
  page.git = { oid, path };
}
