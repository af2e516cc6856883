import type { Element, Root } from 'hast';
import { absoluteUrl } from '../extract/index.js';

export interface Targets {
  pageUrl: string;
  linkTargets: Record<string, string>;
  assetTargets: Record<string, string>;
}

/**
 * Rewrite, in place, every link and image of `node`: a link to an imported page → its target (the fragment kept), a
 * link to a downloaded file → the file, an image → its file; links to a fragment of this page stay fragments; other
 * same-document-relative URLs become absolute (the page's own base is gone once imported).
 */
export function rewriteTargets(node: Element | Root, targets: Targets): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'a' && typeof child.properties.href === 'string') child.properties.href = linkTarget(child.properties.href, targets);
    if ((child.tagName === 'img' || child.tagName === 'source') && typeof child.properties.src === 'string') {
      const url = absoluteUrl(child.properties.src, targets.pageUrl);
      if (url) child.properties.src = targets.assetTargets[url] ?? url;
      delete child.properties.srcSet;
    }
    rewriteTargets(child, targets);
  }
}

function linkTarget(href: string, targets: Targets): string {
  if (href.startsWith('#')) return href;
  const url = absoluteUrl(href, targets.pageUrl);
  if (!url) return href;
  const hash = (() => {
    try {
      return new URL(href, targets.pageUrl).hash;
    } catch {
      return '';
    }
  })();
  if (url === absoluteUrl(targets.pageUrl, targets.pageUrl) && hash) return hash;
  const asset = targets.assetTargets[url];
  if (asset !== undefined) return asset;
  const page = targets.linkTargets[url];
  if (page !== undefined) return page + hash;
  return url + hash;
}
