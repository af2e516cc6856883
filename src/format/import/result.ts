import { FormatWarningCodes, warning } from '../errors.js';
import { REVISION_MODEL_VERSION, type ImportResult, type RevisionModel } from '../model.js';
import { isWithin } from '../paths.js';
import { documents, summaryFingerprint, summaryText } from '../summary/from-revision.js';
import type { ImportContext } from './context.js';

/** Current file path of every document page that has one. */
export function pagePaths(revision: RevisionModel): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of documents(revision.pages)) if (p.git) m.set(p.id, p.git.path);
  return m;
}

/**
 * Last phase: the revision (with the SUMMARY style, where its comments stood and its fingerprint), the statistics,
 * and a warning when the table of contents holds no page at all.
 */
export function importResult(
  ctx: Pick<ImportContext, 'tree' | 'config' | 'warnings' | 'toc' | 'pages' | 'files' | 'builtFrom' | 'counts' | 'reusedFrom'>,
): ImportResult {
  const { config, warnings, pages, files } = ctx;
  const { toc, summaryEntry, summaryPresent } = ctx.toc;
  const revision: RevisionModel = {
    version: REVISION_MODEL_VERSION,
    config,
    pages,
    files,
    summary: {
      present: summaryPresent,
      heading: toc.style.heading,
      indent: toc.style.indent,
      bullet: toc.style.bullet,
      escapeDestinations: toc.style.escapeDestinations,
      escapeParens: toc.style.escapeParens,
      separator: toc.style.separator,
      trailingNewlines: toc.style.trailingNewlines,
      fingerprint: '',
      comments: toc.comments,
    },
  };
  if (toc.commentPlaces && toc.commentPlaces.length === toc.comments.length) {
    revision.summary.commentPlaces = toc.commentPlaces.map((c) => {
      const at = 'top' in c.after ? undefined : ctx.builtFrom.get('entry' in c.after ? c.after.entry : c.after.section);
      return { after: at?.id ?? null, blankBefore: c.blankBefore };
    });
  }
  if (summaryPresent) revision.summary.git = { oid: summaryEntry!.oid, path: config.summary };
  revision.summary.fingerprint = summaryFingerprint(summaryText(revision, pagePaths(revision)));
  const docCount = [...documents(pages)].length;
  if (docCount === 0) {
    const root = config.root;
    const others = [...ctx.tree.keys()].filter((p) => isWithin(p, root)).length;
    warnings.push(
      warning(
        FormatWarningCodes.NO_CONTENT,
        `no GitBook content under ${JSON.stringify(root || '/')}: no page in the table of contents (${others} other file${others === 1 ? '' : 's'})`,
        { severity: 'error', data: { root, files: others } },
      ),
    );
  }
  const { parsed, reused, unlisted } = ctx.counts;
  return { revision, warnings, stats: { parsed, reused, pages: docCount, files: files.length, unlisted }, reusedFrom: ctx.reusedFrom };
}
