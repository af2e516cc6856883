/** Intermediate, file-level form of SUMMARY.md (before it is mapped to pages). */

export interface TocLinkEntry {
  kind: 'link';
  /** Link text, CommonMark-unescaped. */
  text: string;
  /** Destination, CommonMark-unescaped, angle brackets removed. */
  dest: string;
  /** Quoted link title (`"Sidebar label"`), unescaped. */
  linkTitle?: string;
  children: TocEntry[];
  line: number;
}

/** `* ```yaml … ```` entry (OpenAPI-generated subtree). */
export interface TocYamlEntry {
  kind: 'yaml';
  source: string;
  children: TocEntry[];
  line: number;
}

export type TocEntry = TocLinkEntry | TocYamlEntry;

export interface TocSection {
  /** null for the entries before the first group heading. */
  group: null | { title: string; anchor?: string; untitled: boolean; line: number };
  entries: TocEntry[];
}

export interface TocStyle {
  heading: string;
  indent: number;
  bullet: '*' | '-' | '+';
  escapeDestinations: boolean;
  /** 2021-era exporter escaped parentheses in link text (`wandb.init\\(\\)`). */
  escapeParens: boolean;
  separator: string;
  /** Newlines ending the file (current: 1, legacy: 2). */
  trailingNewlines: number;
}

/** The line an HTML comment followed: the `# heading` (top), an entry's line or a group heading. */
export type CommentAnchor = { top: true } | { entry: TocEntry } | { section: TocSection };

export interface ParsedToc {
  sections: TocSection[];
  style: TocStyle;
  comments: string[];
  /** Where each of `comments` stands (same order); absent: all at the end of the file. */
  commentPlaces?: Array<{ after: CommentAnchor; blankBefore: boolean }>;
}
