/** Page metadata written in a page's front matter: its cover and its meta links (shared by the model and the page codec). */
export interface PageCover {
  /** Value of `cover:` as written (path relative to the space root, or a URL). */
  ref: string;
  /** Resolved file id when `ref` names a space file. */
  fileId?: string;
  y?: number;
  height?: number;
}

export interface MetaLinks {
  canonical?: string;
  alternates?: string[];
}
