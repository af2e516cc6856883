import { FormatWarningCodes, PageTooComplexError, warning, type FormatWarning, type RawPageReason } from '../errors.js';
import type { DocumentPage } from '../model.js';
import { DEFAULT_MAX_LENGTH } from '../markdown/index.js';
import { fieldsFingerprint, leadingEmoji } from '../page-codec.js';
import type { DecodedPageSummary, PageCodecRunner } from '../page-codec-runner.js';
import type { ImportContext, PageLoad } from './context.js';
import { invalidUtf8Offsets, strictUtf8 } from './invalid-utf8.js';

type LoadContext = Pick<ImportContext, 'prev' | 'limits' | 'rawUrls' | 'counts' | 'reusedFrom'>;

/** The page being loaded, its path, and where its warnings go. */
interface Loading {
  page: DocumentPage;
  path: string;
  warnings: FormatWarning[];
}

/** This page's file cannot be read as a page: its bytes are kept (the store holds them), one typed warning says why. */
function keepRaw(l: Loading, reason: RawPageReason, size: number, message: string, data: Record<string, unknown>): void {
  l.page.raw = { reason, size };
  l.warnings.push(warning(reason, message, { severity: 'error', path: l.path, data: { size, ...data } }));
}

function keepTooLarge(l: Loading, size: number, limit: number): void {
  keepRaw(l, FormatWarningCodes.PAGE_TOO_LARGE, size, `${l.path} is ${size} bytes (limit ${limit}); kept as raw bytes, not parsed, exported unchanged`, {
    limit,
  });
}

/** The previous revision's page of the same blob: its content and fields, without reading or parsing. */
function reusePage(ctx: LoadContext, page: DocumentPage, reuse: DocumentPage): void {
  ctx.counts.reused++;
  ctx.reusedFrom.set(page.id, reuse.id);
  page.markdown = reuse.markdown;
  page.frontMatter = reuse.frontMatter;
  page.frontMatterValid = reuse.frontMatterValid;
  page.hidden = reuse.hidden;
  page.noIndex = reuse.noIndex;
  for (const k of ['description', 'icon', 'cover', 'layout', 'metaLinks'] as const)
    if (reuse[k] !== undefined) (page as unknown as Record<string, unknown>)[k] = structuredClone(reuse[k]);
  if (reuse.titleSource === 'heading') {
    page.title = reuse.title;
    page.titleSource = 'heading';
  }
  page.derived = reuse.derived;
  ctx.rawUrls.set(
    page.id,
    reuse.references.map((r) => r.url),
  );
}

/** The file's text, or null when its bytes are kept raw (over the size limit, binary, invalid UTF-8). */
function pageText(l: Loading, bytes: Uint8Array, maxPageBytes: number): string | null {
  if (bytes.byteLength > maxPageBytes) {
    keepTooLarge(l, bytes.byteLength, maxPageBytes);
    return null;
  }
  if (bytes.includes(0)) {
    keepRaw(
      l,
      FormatWarningCodes.PAGE_BINARY,
      bytes.byteLength,
      `${l.path} is binary (it holds NUL bytes, first at byte ${bytes.indexOf(0)}); kept as raw bytes, not parsed, exported unchanged`,
      { offset: bytes.indexOf(0) },
    );
    return null;
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    const invalid = invalidUtf8Offsets(bytes);
    keepRaw(
      l,
      FormatWarningCodes.PAGE_INVALID_UTF8,
      bytes.byteLength,
      `${l.path} is not valid UTF-8 (${invalid.count} invalid byte${invalid.count === 1 ? '' : 's'}, first at byte ${invalid.first}); kept as raw bytes, not parsed, exported unchanged`,
      { invalidBytes: invalid.count, offset: invalid.first },
    );
    return null;
  }
}

/** The decoded page, or null when it is too complex for the parse budget (then kept like a page over the size limit). */
async function decodeOrKeepRaw(l: Loading, codec: PageCodecRunner, text: string, size: number, maxPageBytes: number): Promise<DecodedPageSummary | null> {
  try {
    // Within the byte limit, so within the parser's length limit too (UTF-16 length ≤ UTF-8 bytes).
    return await codec.decode(text, Math.max(maxPageBytes, DEFAULT_MAX_LENGTH));
  } catch (err) {
    if (!(err instanceof PageTooComplexError)) throw err;
    // Kept like a page over the size limit: its bytes stored as they are, written back unchanged on export.
    if (err.budget === 'operation')
      keepRaw(
        l,
        FormatWarningCodes.PARSE_BUDGET_EXHAUSTED,
        size,
        `${l.path} was not parsed: the import reached its parse ${err.data.kind === 'deadline' ? 'deadline' : 'budget'}${err.data.limit !== undefined ? ` (${String(err.data.limit)} ms${err.data.kind === 'deadline' ? '' : ' of CPU time'})` : ''}; kept as raw bytes, exported unchanged, parsed again by the next import`,
        { ...err.data },
      );
    else
      keepRaw(
        l,
        FormatWarningCodes.PAGE_TOO_COMPLEX,
        size,
        `${l.path} is too complex to parse (over the ${err.budget} budget${err.data.limit !== undefined ? ` of ${String(err.data.limit)}${err.budget === 'time' ? ' ms' : err.budget === 'memory' ? ' MB' : ''}` : ''}); kept as raw bytes, not parsed, exported unchanged`,
        { ...err.data },
      );
    return null;
  }
}

/** The decoded page's markdown, fields, warnings and link destinations, onto the page. */
function applyDecoded(ctx: LoadContext, l: Loading, text: string, decoded: DecodedPageSummary): void {
  const { page, path } = l;
  const fields = decoded.fields;
  page.markdown = text;
  for (const w of decoded.warnings) {
    const code = /FRONT_MATTER/.test(w.code) ? FormatWarningCodes.FRONT_MATTER_INVALID : FormatWarningCodes.PAGE_PARSE_WARNING;
    l.warnings.push(warning(code, `${path}: ${w.message}`, { path, ...(w.line !== undefined ? { line: w.line } : {}), data: { markdownCode: w.code } }));
  }
  ctx.rawUrls.set(page.id, decoded.urls);
  page.frontMatter = fields.frontMatter;
  page.frontMatterValid = fields.frontMatterValid;
  page.hidden = fields.hidden;
  page.noIndex = fields.noIndex;
  if (fields.description !== undefined) page.description = fields.description;
  if (fields.icon !== undefined) page.icon = fields.icon;
  if (fields.cover !== undefined) page.cover = { ...fields.cover };
  if (fields.layout !== undefined) page.layout = fields.layout;
  if (fields.metaLinks !== undefined) page.metaLinks = fields.metaLinks;
  if (fields.title !== undefined) {
    page.title = fields.title;
    page.titleSource = 'heading';
  }
  page.derived = fieldsFingerprint(fields);
}

/** A page not reused: a symbolic link is not followed; otherwise its file is read and decoded (or kept raw). */
async function readAndDecode(ctx: LoadContext, l: Loading, entry: PageLoad['entry'], codec: PageCodecRunner): Promise<void> {
  const { limits } = ctx;
  if (entry.mode === '120000') {
    l.warnings.push(
      warning(FormatWarningCodes.PAGE_SYMLINK, `${l.path} is a symbolic link; the page is imported without content and left untouched`, {
        severity: 'error',
        path: l.path,
      }),
    );
    return;
  }
  if (entry.size !== undefined && entry.size > limits.maxPageBytes) return keepTooLarge(l, entry.size, limits.maxPageBytes);
  const bytes = await entry.read();
  ctx.counts.parsed++;
  const text = pageText(l, bytes, limits.maxPageBytes);
  if (text === null) return;
  const decoded = await decodeOrKeepRaw(l, codec, text, bytes.byteLength, limits.maxPageBytes);
  if (decoded !== null) applyDecoded(ctx, l, text, decoded);
}

/**
 * One page of the phase "page contents": reused from the previous revision when its blob is unchanged, otherwise read
 * and decoded by `codec`. A file that cannot be read as a page (over the size limit, binary, invalid UTF-8, too
 * complex for the parse budget) keeps its bytes (`page.raw`) with one typed warning; a symbolic link is not followed.
 * The page's warnings go to `warnings`; the destinations found in its markdown to `ctx.rawUrls`.
 */
export async function loadPage(ctx: LoadContext, { page, entry, tocText }: PageLoad, warnings: FormatWarning[], codec: PageCodecRunner): Promise<void> {
  const { prev } = ctx;
  const path = page.git!.path;
  const old = prev.byPath.get(path);
  const reuse = old && old.git?.oid === entry.oid ? old : (prev.byOid.get(entry.oid) ?? []).find((c) => c.id === page.id);
  if (reuse && (reuse.markdown !== null || entry.mode === '120000')) reusePage(ctx, page, reuse);
  else await readAndDecode(ctx, { page, path, warnings }, entry, codec);
  if (page.titleSource !== 'heading' && tocText === undefined && page.markdown === null) page.titleSource = 'path';
  if (tocText !== undefined && tocText !== page.title) page.tocTitle = tocText;
  const emoji = leadingEmoji(page.title);
  if (emoji !== undefined) page.emoji = emoji;
  if (page.derived === '') page.derived = fieldsFingerprint({ hidden: page.hidden, noIndex: page.noIndex, frontMatter: page.frontMatter });
}
