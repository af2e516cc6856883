import { FormatWarningCodes, warning } from '../errors.js';
import { joinPath, resolvePath } from '../paths.js';
import type { ImportContext } from './context.js';

/** Phase "redirects": each redirect of `.gitbook.yaml` names a page (its file, or its folder's README) or is a warning. */
export function resolveRedirects(ctx: Pick<ImportContext, 'config' | 'warnings' | 'pageByPath'>): void {
  const { config, pageByPath } = ctx;
  for (const r of config.redirects) {
    const to = resolvePath(config.root, r.to.replace(/^\.\//, ''));
    const target = to === null ? undefined : (pageByPath.get(to) ?? pageByPath.get(joinPath(to, 'README.md')));
    if (target) r.pageId = target.id;
    else
      ctx.warnings.push(
        warning(FormatWarningCodes.REDIRECT_UNRESOLVED, `redirect ${JSON.stringify(r.from)} → ${JSON.stringify(r.to)} does not name a page`, {
          severity: 'info',
          ...(config.configPath ? { path: config.configPath } : {}),
        }),
      );
  }
}
