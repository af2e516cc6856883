import { FormatWarningCodes, warning } from '../errors.js';
import { isMarkdownPath, isWithin, joinPath } from '../paths.js';
import type { ImportContext } from './context.js';

/** Phase "markdown files the TOC does not list": each is left untouched and reported (info), and counted. */
export function reportUnlisted(ctx: Pick<ImportContext, 'tree' | 'config' | 'warnings' | 'pageByPath' | 'counts'>): void {
  const { config } = ctx;
  const gitbookDir = joinPath(config.root, '.gitbook');
  for (const path of ctx.tree.keys()) {
    if (!isWithin(path, config.root) || isWithin(path, gitbookDir) || !isMarkdownPath(path) || path === config.summary || ctx.pageByPath.has(path)) continue;
    ctx.counts.unlisted++;
    ctx.warnings.push(
      warning(FormatWarningCodes.PAGE_NOT_IN_SUMMARY, `${path} is not listed in the table of contents and is not imported`, { severity: 'info', path }),
    );
  }
}
