import { FormatWarningCodes, PageTooComplexError, warning, type FormatWarning, type RawPageReason } from '../errors.js';
import type { DocumentPage } from '../model.js';
import { DEFAULT_MAX_LENGTH } from '../markdown/index.js';
import { fieldsFingerprint, leadingEmoji, type PageFields } from '../page-codec.js';
import type { DecodedPageSummary, PageCodecRunner } from '../page-codec-runner.js';
import type { ImportContext, PageLoad } from './context.js';
import { invalidUtf8Offsets, strictUtf8 } from './invalid-utf8.js';

/**
 * One page of the phase "page contents": reused from the previous revision when its blob is unchanged, otherwise read
 * and decoded by `codec`. A file that cannot be read as a page (over the size limit, binary, invalid UTF-8, too
 * complex for the parse budget) keeps its bytes (`page.raw`) with one typed warning; a symbolic link is not followed.
 * The page's warnings go to `warnings`; the destinations found in its markdown to `ctx.rawUrls`.
 */
export async function loadPage(
  ctx: Pick<ImportContext, 'prev' | 'limits' | 'rawUrls' | 'counts' | 'reusedFrom'>,
  { page, entry, tocText }: PageLoad,
  warnings: FormatWarning[],
  codec: PageCodecRunner,
): Promise<void> {
  const { prev, limits, rawUrls } = ctx;
  const path = page.git!.path;
  /** This page's file cannot be read as a page: its bytes are kept (the store holds them), one typed warning says why. */
  const keepRaw = (page: DocumentPage, reason: RawPageReason, size: number, message: string, data: Record<string, unknown>) => {
    page.raw = { reason, size };
    warnings.push(warning(reason, message, { severity: 'error', path, data: { size, ...data } }));
  };
  const old = prev.byPath.get(path);
  const reuse = old && old.git?.oid === entry.oid ? old : (prev.byOid.get(entry.oid) ?? []).find((c) => c.id === page.id);
  let fields: PageFields | null = null;
  if (reuse && (reuse.markdown !== null || entry.mode === '120000')) {
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
    rawUrls.set(
      page.id,
      reuse.references.map((r) => r.url),
    );
  } else {
    if (entry.mode === '120000') {
      warnings.push(
        warning(FormatWarningCodes.PAGE_SYMLINK, `${path} is a symbolic link; the page is imported without content and left untouched`, {
          severity: 'error',
          path,
        }),
      );
    } else if (entry.size !== undefined && entry.size > limits.maxPageBytes) {
      keepRaw(
        page,
        FormatWarningCodes.PAGE_TOO_LARGE,
        entry.size,
        `${path} is ${entry.size} bytes (limit ${limits.maxPageBytes}); kept as raw bytes, not parsed, exported unchanged`,
        { limit: limits.maxPageBytes },
      );
    } else {
      const bytes = await entry.read();
      ctx.counts.parsed++;
      let text: string | null = null;
      if (bytes.byteLength > limits.maxPageBytes) {
        keepRaw(
          page,
          FormatWarningCodes.PAGE_TOO_LARGE,
          bytes.byteLength,
          `${path} is ${bytes.byteLength} bytes (limit ${limits.maxPageBytes}); kept as raw bytes, not parsed, exported unchanged`,
          { limit: limits.maxPageBytes },
        );
      } else if (bytes.includes(0)) {
        keepRaw(
          page,
          FormatWarningCodes.PAGE_BINARY,
          bytes.byteLength,
          `${path} is binary (it holds NUL bytes, first at byte ${bytes.indexOf(0)}); kept as raw bytes, not parsed, exported unchanged`,
          { offset: bytes.indexOf(0) },
        );
      } else {
        try {
          text = strictUtf8.decode(bytes);
        } catch {
          const invalid = invalidUtf8Offsets(bytes);
          keepRaw(
            page,
            FormatWarningCodes.PAGE_INVALID_UTF8,
            bytes.byteLength,
            `${path} is not valid UTF-8 (${invalid.count} invalid byte${invalid.count === 1 ? '' : 's'}, first at byte ${invalid.first}); kept as raw bytes, not parsed, exported unchanged`,
            { invalidBytes: invalid.count, offset: invalid.first },
          );
        }
      }
      let decoded: DecodedPageSummary | null = null;
      if (text !== null) {
        try {
          // Within the byte limit, so within the parser's length limit too (UTF-16 length ≤ UTF-8 bytes).
          decoded = await codec.decode(text, Math.max(limits.maxPageBytes, DEFAULT_MAX_LENGTH));
        } catch (err) {
          if (!(err instanceof PageTooComplexError)) throw err;
          // Kept like a page over the size limit: its bytes stored as they are, written back unchanged on export.
          if (err.budget === 'operation')
            keepRaw(
              page,
              FormatWarningCodes.PARSE_BUDGET_EXHAUSTED,
              bytes.byteLength,
              `${path} was not parsed: the import reached its parse ${err.data.kind === 'deadline' ? 'deadline' : 'budget'}${err.data.limit !== undefined ? ` (${String(err.data.limit)} ms${err.data.kind === 'deadline' ? '' : ' of CPU time'})` : ''}; kept as raw bytes, exported unchanged, parsed again by the next import`,
              { ...err.data },
            );
          else
            keepRaw(
              page,
              FormatWarningCodes.PAGE_TOO_COMPLEX,
              bytes.byteLength,
              `${path} is too complex to parse (over the ${err.budget} budget${err.data.limit !== undefined ? ` of ${String(err.data.limit)}${err.budget === 'time' ? ' ms' : err.budget === 'memory' ? ' MB' : ''}` : ''}); kept as raw bytes, not parsed, exported unchanged`,
              { ...err.data },
            );
        }
      }
      if (text !== null && decoded !== null) {
        fields = decoded.fields;
        page.markdown = text;
        for (const w of decoded.warnings) {
          const code = /FRONT_MATTER/.test(w.code) ? FormatWarningCodes.FRONT_MATTER_INVALID : FormatWarningCodes.PAGE_PARSE_WARNING;
          warnings.push(warning(code, `${path}: ${w.message}`, { path, ...(w.line !== undefined ? { line: w.line } : {}), data: { markdownCode: w.code } }));
        }
        rawUrls.set(page.id, decoded.urls);
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
    }
  }
  if (page.titleSource !== 'heading' && tocText === undefined && page.markdown === null) page.titleSource = 'path';
  if (tocText !== undefined && tocText !== page.title) page.tocTitle = tocText;
  const emoji = leadingEmoji(page.title);
  if (emoji !== undefined) page.emoji = emoji;
  if (page.derived === '') page.derived = fieldsFingerprint({ hidden: page.hidden, noIndex: page.noIndex, frontMatter: page.frontMatter });
}
