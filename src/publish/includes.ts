import { createHash } from 'node:crypto';
import { resolveReference, type DocumentPage, type FileModel, type ReferenceIndex, type RevisionModel } from '../format/index.js';
import type { Store } from '../store/index.js';
import type { RenderLink } from './render/index.js';

/** An included file larger than this is not expanded (reusable content is a few blocks). */
export const INCLUDE_MAX_BYTES = 256 * 1024;

const INCLUDE_TAG = /\{%-?\s*include\s+(?:"([^"\n]{1,1000})"|'([^'\n]{1,1000})')\s*-?%\}/g;
/** Destinations written in an included file: markdown links and images, HTML and Liquid URL attributes. */
const DESTINATIONS = /\]\(\s*<?([^)\s>]{1,2000})|\b(?:src|href|url)="([^"\n]{1,2000})"/g;

/** The paths a page's include tags write, in order (repeats kept). */
export function includeUrls(markdown: string): string[] {
  return markdown.includes('include') ? [...markdown.matchAll(INCLUDE_TAG)].map((m) => m[1] ?? m[2]!) : [];
}

export interface PageIncludes {
  /** Path as written in the page → the included file's markdown. */
  includes: Record<string, string>;
  /** Destinations written in the included files → where they lead on the site. */
  links: Record<string, RenderLink>;
  /** Hash of what the includes contribute (part of the page's input key). */
  key: string;
}

/**
 * Reusable content of one site space for the publish run: the text of each `.gitbook/includes/…` file a page
 * includes (read once from the blob store), and the destinations inside it resolved relative to the included file
 * (links and images in reusable content are written relative to `.gitbook/includes/`).
 */
export class IncludeLoader {
  /** By hash, read once even when pages that include it are prepared at once. */
  private readonly texts = new Map<string, Promise<string | null>>();
  private readonly files: Map<string, FileModel>;
  private readonly index: ReferenceIndex;

  constructor(
    private readonly store: Pick<Store, 'blobs'>,
    model: RevisionModel,
    private readonly fileHashes: Map<string, string>,
    private readonly target: (id: { pageId?: string; fileId?: string; anchor?: string }) => RenderLink | undefined,
    pages: DocumentPage[],
  ) {
    this.files = new Map(model.files.map((f) => [f.id, f]));
    this.index = {
      pagesByPath: new Map(pages.flatMap((p) => (p.git ? [[p.git.path, p.id] as const] : []))),
      filesByPath: new Map(model.files.map((f) => [f.path, f.id] as const)),
      exists: () => false,
    };
  }

  async forPage(page: DocumentPage, markdown: string): Promise<PageIncludes> {
    return this.forUrls(page, includeUrls(markdown));
  }

  /** What the includes of a page contribute, from the paths its include tags write (`includeUrls`). */
  async forUrls(page: DocumentPage, urls: string[]): Promise<PageIncludes> {
    const out: PageIncludes = { includes: {}, links: {}, key: '' };
    if (urls.length === 0) return out;
    const hash = createHash('sha256');
    for (const url of urls) {
      const ref = page.references?.find((r) => r.url === url || r.url === url.trim());
      const file = ref?.target.kind === 'file' ? this.files.get(ref.target.fileId) : undefined;
      const text = file ? await this.text(file) : null;
      if (file === undefined || text === null) continue;
      out.includes[url] = text;
      hash.update(`${url}\0${text}\0`);
      for (const d of text.matchAll(DESTINATIONS)) this.resolve(d[1] ?? d[2]!, file.path, out.links);
    }
    hash.update(JSON.stringify(out.links));
    out.key = hash.digest('hex');
    return out;
  }

  private resolve(dest: string, from: string, links: Record<string, RenderLink>): void {
    if (Object.hasOwn(links, dest)) return;
    const t = resolveReference(dest, from, this.index).target;
    const link =
      t.kind === 'page'
        ? this.target({ pageId: t.pageId, ...(t.anchor ? { anchor: t.anchor } : {}) })
        : t.kind === 'file'
          ? this.target({ fileId: t.fileId })
          : undefined;
    if (link) links[dest] = link;
  }

  private async text(file: FileModel): Promise<string | null> {
    const hash = this.fileHashes.get(file.id);
    if (hash === undefined || file.role !== 'include') return null;
    let text = this.texts.get(hash);
    if (!text) {
      text = this.store.blobs.get(hash).then((bytes) => (bytes && bytes.byteLength <= INCLUDE_MAX_BYTES ? new TextDecoder().decode(bytes) : null));
      this.texts.set(hash, text);
    }
    return text;
  }
}
