import { createHash } from 'node:crypto';
import type { Element, ElementContent, Root } from 'hast';
import { isAllowedImageUrl, refusedSchemeLabel } from '../../url-policy/index.js';

/**
 * The images of imported HTML after their targets were rewritten (`rewriteTargets`), through the URL policy: a
 * `data:` image (common in saved pages and some generators) becomes a space file `.gitbook/assets/inline/<hash>.<ext>`
 * — never a `data:` URL in the markdown — when the caller gives the page's place in the tree and it is a bitmap or
 * SVG image within the limits; otherwise, like an image of any other refused scheme (`javascript:`, `file:`, …), it
 * is dropped and its alt text kept. Either way the caller is told (warnings).
 */

export const INLINE_IMAGE_DIRECTORY = '.gitbook/assets/inline';
/** The largest `data:` image kept as a file, decoded. */
export const MAX_INLINE_IMAGE_BYTES = 10 * 1024 * 1024;
/** The most `data:` image bytes kept from one page. */
export const MAX_INLINE_IMAGE_BYTES_PER_PAGE = 25 * 1024 * 1024;

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/bmp': 'bmp',
  'image/svg+xml': 'svg',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
};

export interface InlineImageFile {
  /** Path in the source tree (`.gitbook/assets/inline/<hash>.png`). */
  path: string;
  bytes: Uint8Array;
  contentType: string;
}

export interface ImagesOutcome {
  files: InlineImageFile[];
  /** `data:` images dropped (not an image type, undecodable, over a limit, or no place to keep them). */
  dataDropped: number;
  /** Images of another refused scheme, dropped. */
  refused: number;
  /** The refused schemes seen (`javascript:`), for the warning. */
  schemes: Set<string>;
}

function decodeDataUrl(url: string): { contentType: string; bytes: Uint8Array } | null {
  const m = /^\s*data:([^,]*),(.*)$/is.exec(url);
  if (!m) return null;
  const params = m[1]!.split(';').map((p) => p.trim().toLowerCase());
  const contentType = params[0] || 'text/plain';
  if (!EXTENSIONS[contentType]) return null;
  const data = m[2]!;
  if (params.includes('base64')) {
    const compact = data.replace(/\s+/g, '');
    if ((compact.length * 3) / 4 > MAX_INLINE_IMAGE_BYTES + 3) return null;
    const bytes = Buffer.from(compact, 'base64');
    return bytes.byteLength > 0 ? { contentType, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) } : null;
  }
  if (data.length > MAX_INLINE_IMAGE_BYTES * 3) return null;
  try {
    const bytes = new TextEncoder().encode(decodeURIComponent(data));
    return bytes.byteLength > 0 && bytes.byteLength <= MAX_INLINE_IMAGE_BYTES ? { contentType, bytes } : null;
  } catch {
    return null;
  }
}

/** `to` relative to the directory of the file `from` (both relative to the tree's root). */
function relativeTo(from: string, to: string): string {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}

/**
 * Rewrites, in place, the `src` of every `img` and `source` of `node`: `data:` images to files (when `pageFile`, the
 * page's path in the tree, is given), refused ones replaced by their alt text.
 */
export function keepOrDropImages(node: Root | Element, pageFile: string | undefined): ImagesOutcome {
  const outcome: ImagesOutcome = { files: [], dataDropped: 0, refused: 0, schemes: new Set() };
  const byPath = new Map<string, InlineImageFile>();
  let kept = 0;
  const replacement = (element: Element, src: string): ElementContent[] | null => {
    if (/^\s*data:/i.test(src)) {
      const decoded = pageFile !== undefined ? decodeDataUrl(src) : null;
      if (decoded && kept + decoded.bytes.byteLength <= MAX_INLINE_IMAGE_BYTES_PER_PAGE) {
        const hash = createHash('sha256').update(decoded.bytes).digest('hex').slice(0, 16);
        const path = `${INLINE_IMAGE_DIRECTORY}/${hash}.${EXTENSIONS[decoded.contentType]}`;
        if (!byPath.has(path)) {
          byPath.set(path, { path, bytes: decoded.bytes, contentType: decoded.contentType });
          kept += decoded.bytes.byteLength;
        }
        element.properties.src = relativeTo(pageFile!, path);
        return null;
      }
      outcome.dataDropped++;
    } else if (!isAllowedImageUrl(src)) {
      outcome.refused++;
      outcome.schemes.add(refusedSchemeLabel(src));
    } else {
      return null;
    }
    const alt = typeof element.properties.alt === 'string' ? element.properties.alt.trim() : '';
    return alt ? [{ type: 'text', value: alt }] : [];
  };
  const walk = (parent: Root | Element) => {
    for (let i = 0; i < parent.children.length; i++) {
      const child = parent.children[i]!;
      if (child.type !== 'element') continue;
      if ((child.tagName === 'img' || child.tagName === 'source') && typeof child.properties.src === 'string') {
        const instead = replacement(child, child.properties.src);
        if (instead) {
          parent.children.splice(i, 1, ...(instead as typeof parent.children));
          i += instead.length - 1;
          continue;
        }
      }
      walk(child);
    }
  };
  walk(node);
  outcome.files = [...byPath.values()];
  return outcome;
}
