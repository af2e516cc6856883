import { FormatWarningCodes, PageTooComplexError, SummaryTooComplexError, warning } from '../errors.js';
import { inferToc } from '../summary/infer.js';
import { inlinePageCodec } from '../page-codec-runner.js';
import type { ImportContext } from './context.js';
import { invalidUtf8Offsets, strictUtf8 } from './invalid-utf8.js';

/**
 * Phase "table of contents": SUMMARY.md parsed (invalid UTF-8 read with U+FFFD, one warning), or, when it is
 * missing or a symbolic link (not followed, one warning), inferred from the folders.
 */
export async function readToc(ctx: Pick<ImportContext, 'tree' | 'config' | 'warnings' | 'toc' | 'options' | 'limits'>): Promise<void> {
  const { tree, config, warnings } = ctx;
  const summaryEntry = tree.get(config.summary);
  const summaryPresent = summaryEntry !== undefined && summaryEntry.mode !== '120000';
  if (summaryPresent) {
    const bytes = await summaryEntry.read();
    // Parsed in the parse pool like a page, and never larger than a page may be.
    if (bytes.length > ctx.limits.maxPageBytes) {
      throw new SummaryTooComplexError(config.summary, `is ${bytes.length} bytes, above the ${ctx.limits.maxPageBytes}-byte limit of a page`);
    }
    try {
      strictUtf8.decode(bytes);
    } catch {
      const invalid = invalidUtf8Offsets(bytes);
      warnings.push(
        warning(
          FormatWarningCodes.SUMMARY_INVALID_UTF8,
          `${config.summary} is not valid UTF-8 (${invalid.count} invalid byte${invalid.count === 1 ? '' : 's'}, first at byte ${invalid.first}); read with U+FFFD in their place, the file is rewritten only when the table of contents changes`,
          { severity: 'error', path: config.summary, data: { invalidBytes: invalid.count, offset: invalid.first } },
        ),
      );
    }
    const codec = ctx.options.codec ?? inlinePageCodec;
    const parsed = await codec.parseSummary(new TextDecoder().decode(bytes), config.summary).catch((err: unknown) => {
      if (err instanceof PageTooComplexError) throw new SummaryTooComplexError(config.summary, `is too complex to parse (over the ${err.budget} budget)`);
      throw err;
    });
    warnings.push(...parsed.warnings);
    ctx.toc = { toc: parsed.toc, summaryEntry, summaryPresent };
  } else {
    if (summaryEntry)
      warnings.push(
        warning(
          FormatWarningCodes.SUMMARY_SYMLINK,
          `${config.summary} is a symbolic link; it is not followed, the table of contents is inferred from the folders and the link is left untouched`,
          { severity: 'error', path: config.summary },
        ),
      );
    ctx.toc = { toc: inferToc(tree, config.root, config.readme, config.summary), summaryEntry, summaryPresent };
  }
}
