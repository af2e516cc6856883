import { isAbsoluteAllowedUrl, isAllowedImageUrl, isAllowedLinkUrl, refusedSchemeLabel } from '../../url-policy/index.js';

/**
 * What the renderer of one page is given besides its markdown: where its references point on the site (resolved
 * by the publish activity from the page's references), the site-relative prefix of the page, and the OpenAPI
 * documents its blocks name. Plain data: it crosses into a parse-pool thread.
 */
export interface RenderLink {
  /** Site-relative address (`guides/install/`, `_files/<hash>/x.png`), or an absolute URL. */
  href: string;
  /** The target page's title (cards, page references). */
  title?: string;
  /** A file's content type (images, file blocks). */
  contentType?: string;
  /** A file's name. */
  name?: string;
  size?: number;
}

export interface RenderSpec {
  rootPath: string;
  filesystem: Record<string, string>;
}

export interface RenderPageInput {
  markdown: string;
  /** `../` repeated to the site root from the page's directory (`''` at the root). */
  rootPrefix: string;
  /** Destination as written in the page → where it points; a destination absent here is broken. */
  links: Record<string, RenderLink>;
  /** OpenAPI documents by `spec:<slug>` or `src:<destination>`. */
  specs: Record<string, RenderSpec>;
  /** Reusable content (`{% include "…" %}`): the included file's markdown by the path as written in the page. */
  includes?: Record<string, string>;
}

export interface RenderWarning {
  code:
    'PUBLISH_BROKEN_LINK' | 'PUBLISH_UNSUPPORTED_BLOCK' | 'PUBLISH_SPEC_MISSING' | 'PUBLISH_HTML_REMOVED' | 'PUBLISH_INCLUDE_MISSING' | 'PUBLISH_MATH_INVALID';
  message: string;
}

export interface RenderedPage {
  html: string;
  headings: Array<{ depth: number; id: string; text: string }>;
  /** Plain text of the page (llms.txt summaries, page descriptions). */
  summary: string;
  warnings: RenderWarning[];
  /** Code in a language was left plain because the highlighter was not loaded yet (the page is rendered again next time). */
  plainCode?: boolean;
  /** The page has typeset math: it links KaTeX's stylesheet, and `mathCss` (KaTeX's inline styles as classes). */
  math?: boolean;
  mathCss?: string;
}

/** Resolution of destinations while one page renders; collects the broken ones. */
export class LinkResolver {
  readonly warnings: RenderWarning[] = [];
  constructor(private readonly input: RenderPageInput) {}

  /**
   * The href to write, or null for a destination that names nothing on the site or whose scheme the URL policy
   * refuses (src/url-policy: only http, https, mailto, relative and anchors), reported once.
   */
  href(url: string): string | null {
    const trimmed = url.trim();
    if (trimmed === '') return null;
    // A destination Folio resolved to a page or file of the site: the address it built.
    const link = this.input.links[url] ?? this.input.links[trimmed];
    if (link) {
      if (isAbsoluteAllowedUrl(link.href)) return link.href;
      if (isAllowedLinkUrl(link.href)) return this.input.rootPrefix + link.href;
    }
    if (!isAllowedLinkUrl(trimmed)) {
      this.warn('PUBLISH_BROKEN_LINK', `link with a refused scheme (${refusedSchemeLabel(trimmed)}) kept as text`);
      return null;
    }
    if (trimmed.startsWith('#')) return trimmed;
    if (isAbsoluteAllowedUrl(trimmed)) return trimmed;
    this.warn('PUBLISH_BROKEN_LINK', `link to nothing on the site: ${trimmed.slice(0, 200)}`);
    return null;
  }

  /** The src of an image: as `href`, and only http, https or a file of the site (never `data:` or `mailto:`). */
  src(url: string): string | null {
    const trimmed = url.trim();
    if (trimmed !== '' && !this.link(url) && !isAllowedImageUrl(trimmed)) {
      this.warn('PUBLISH_BROKEN_LINK', `image with a refused scheme (${refusedSchemeLabel(trimmed)}) shown as its text`);
      return null;
    }
    return this.href(url);
  }

  link(url: string): RenderLink | undefined {
    return this.input.links[url] ?? this.input.links[url.trim()];
  }

  spec(key: string): RenderSpec | undefined {
    return this.input.specs[key];
  }

  warn(code: RenderWarning['code'], message: string): void {
    if (this.warnings.length < 50 && !this.warnings.some((w) => w.message === message)) this.warnings.push({ code, message });
  }
}
