import type { Nodes, Parents, Root, RootContent } from 'mdast';
import { isAllowedImageUrl, isAllowedLinkUrl, refusedSchemeLabel } from '../../url-policy/index.js';

export interface RefusedUrls {
  links: number;
  images: number;
  /** The refused schemes seen (`javascript:`), for the warning. */
  schemes: Set<string>;
}

/**
 * The converted page through the URL policy (src/url-policy), whatever element a URL came from (`a`, `iframe`,
 * `video`, `audio`, …): a link with a refused scheme (`javascript:`, `vbscript:`, `data:`, hidden by case, tabs or
 * character references) is replaced by its text, an image by its alt text, a definition is removed. Nothing of
 * such a URL reaches the stored markdown.
 */
export function neutraliseUrls(root: Root): RefusedUrls {
  const refused: RefusedUrls = { links: 0, images: 0, schemes: new Set() };
  const walk = (parent: Parents) => {
    const children = parent.children as RootContent[];
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      let instead: RootContent[] | null = null;
      if ((child.type === 'link' || child.type === 'definition') && !isAllowedLinkUrl(child.url)) {
        refused.links++;
        refused.schemes.add(refusedSchemeLabel(child.url));
        instead = child.type === 'link' ? (child.children as RootContent[]) : [];
      } else if (child.type === 'image' && !isAllowedImageUrl(child.url)) {
        refused.images++;
        refused.schemes.add(refusedSchemeLabel(child.url));
        instead = child.alt ? [{ type: 'text', value: child.alt }] : [];
      }
      if (instead) {
        children.splice(i, 1, ...instead);
        i--;
        continue;
      }
      if ('children' in child) walk(child as Nodes as Parents);
    }
  };
  walk(root);
  return refused;
}
