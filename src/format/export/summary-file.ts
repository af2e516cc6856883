import { FormatWarningCodes, warning } from '../errors.js';
import { gitBlobOid } from '../source-tree.js';
import { summaryFingerprint, summaryText } from '../summary/from-revision.js';
import type { ExportContext } from './context.js';

const encoder = new TextEncoder();

/**
 * Phase "SUMMARY.md": rewritten only when the table of contents changed (or with `reserialize`); never over a
 * symbolic link (a warning when the change is lost).
 */
export function writeSummary(ctx: Pick<ExportContext, 'target' | 'options' | 'revision' | 'warnings' | 'changes' | 'paths'>): void {
  const { target, revision, changes } = ctx;
  const { config } = revision;
  const text = summaryText(revision, ctx.paths);
  const fp = summaryFingerprint(text);
  const tocChanged = fp !== revision.summary.fingerprint;
  const summaryIsSymlink = target.get(config.summary)?.mode === '120000';
  if (summaryIsSymlink && (tocChanged || ctx.options.reserialize)) {
    if (tocChanged)
      ctx.warnings.push(
        warning(FormatWarningCodes.SUMMARY_SYMLINK, `${config.summary} is a symbolic link; the changed table of contents is not written over it`, {
          severity: 'error',
          path: config.summary,
        }),
      );
  } else if (tocChanged || ctx.options.reserialize) {
    const bytes = encoder.encode(text);
    const oid = gitBlobOid(bytes);
    if (target.get(config.summary)?.oid !== oid) changes.set(config.summary, bytes);
    revision.summary.git = { oid, path: config.summary };
    revision.summary.present = true;
  }
  revision.summary.fingerprint = fp;
}
