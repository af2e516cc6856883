import { FormatWarningCodes, warning } from '../errors.js';
import type { PageReference } from '../model.js';
import { basename, dirname, isExternalUrl, isMarkdownPath, resolvePath, safeDecode } from '../paths.js';
import { resolveReference, type ReferenceIndex, type Resolution } from '../resolve-reference.js';
import type { ImportContext } from './context.js';

/**
 * Phase "references": each destination found in a page resolves to a page, a space file or nothing (a warning: a
 * link that does not resolve, a missing asset, a file Folio does not manage); covers name a space file; SUMMARY links
 * with an anchor or listed twice point to their page; a space file is `referenced` when some page uses it.
 */
export function resolveReferences(
  ctx: Pick<ImportContext, 'tree' | 'config' | 'warnings' | 'loads' | 'pageByPath' | 'filesByPath' | 'files' | 'rawUrls' | 'pendingLinks'>,
): void {
  const { tree, config, warnings, pageByPath, filesByPath } = ctx;
  const root = config.root;
  const pagesByPath = new Map<string, string>([...pageByPath].map(([p, page]) => [p, page.id]));
  const index: ReferenceIndex = { pagesByPath, filesByPath, exists: (p) => tree.has(p) };
  const referenced = new Set<string>();
  // A resolution depends on the destination and the page's directory only: resolved once per pair (pages of one
  // folder link to the same places). Each reference gets its own target object.
  const resolved = new Map<string, Resolution>();
  for (const { page } of ctx.loads) {
    const urls = ctx.rawUrls.get(page.id) ?? [];
    const refs: PageReference[] = [];
    const dir = dirname(page.git!.path);
    for (const url of urls) {
      const key = `${dir}\0${url}`;
      let r = resolved.get(key);
      if (!r) {
        r = resolveReference(url, page.git!.path, index);
        resolved.set(key, r);
      }
      refs.push({ url, target: { ...r.target } });
      if (r.target.kind === 'file') referenced.add(r.target.fileId);
      if (r.problem && r.target.kind === 'unresolved') {
        const p = r.target.path;
        const inGitbookDir = /(^|\/)\.gitbook\//.test(p);
        const isPage = isMarkdownPath(p) || (!inGitbookDir && !/\.[^/]+$/.test(basename(p)));
        if (r.problem === 'unmanaged') {
          warnings.push(
            warning(FormatWarningCodes.LINK_UNRESOLVED, `${page.git!.path}: link ${JSON.stringify(url)} points to a file that is not a page or space file`, {
              path: page.git!.path,
              data: { url },
            }),
          );
        } else if (isPage) {
          warnings.push(
            warning(FormatWarningCodes.LINK_UNRESOLVED, `${page.git!.path}: link ${JSON.stringify(url)} does not resolve`, {
              path: page.git!.path,
              data: { url },
            }),
          );
        } else {
          warnings.push(
            warning(FormatWarningCodes.ASSET_MISSING, `${page.git!.path}: ${JSON.stringify(url)} names a missing file`, {
              path: page.git!.path,
              data: { url },
            }),
          );
        }
      }
    }
    page.references = refs;
    if (page.cover && !isExternalUrl(page.cover.ref)) {
      const c = page.cover.ref;
      const cands = [resolvePath(root, c), resolvePath(dirname(page.git!.path), c)];
      const dec = safeDecode(c);
      if (dec !== null && dec !== c) cands.push(resolvePath(root, dec), resolvePath(dirname(page.git!.path), dec));
      const hit = cands.find((p) => p !== null && filesByPath.has(p));
      if (hit) {
        page.cover.fileId = filesByPath.get(hit)!;
        referenced.add(page.cover.fileId);
      } else
        warnings.push(
          warning(FormatWarningCodes.ASSET_MISSING, `${page.git!.path}: cover ${JSON.stringify(c)} names a missing file`, { path: page.git!.path }),
        );
    }
  }
  for (const { page, path, fragment } of ctx.pendingLinks) {
    const target = pageByPath.get(path);
    if (target) page.target = fragment !== undefined ? { kind: 'page', pageId: target.id, anchor: fragment } : { kind: 'page', pageId: target.id };
    else
      warnings.push(
        warning(FormatWarningCodes.LINK_UNRESOLVED, `SUMMARY link ${JSON.stringify(page.href)} does not name a page of the table of contents`, {
          path: config.summary,
        }),
      );
  }
  for (const f of ctx.files) f.referenced = referenced.has(f.id);
}
