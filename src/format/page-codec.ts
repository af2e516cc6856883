/**
 * Adapter between the tree converter and the markdown page layer (`./markdown`): derives a page's
 * metadata fields and references from its file text, and regenerates the text after fields or
 * reference targets changed (minimal diff against the original).
 */
import type { Nodes, Root } from 'mdast';
import { createHash } from 'node:crypto';
import {
  FrontMatter,
  currentStyle,
  parsePageFile,
  serializePageFile,
  type PageFile,
  type ParseOptions,
  type ParsePhase,
  type Style,
} from './markdown/index.js';
import type { MetaLinks, PageCover } from './page-metadata.js';

/** Metadata of a page as written in its file. */
export interface PageFields {
  /** `# H1` text; undefined when the file has no title heading. */
  title?: string;
  description?: string;
  icon?: string;
  cover?: Omit<PageCover, 'fileId'>;
  layout?: Record<string, unknown>;
  hidden: boolean;
  noIndex: boolean;
  metaLinks?: MetaLinks;
  frontMatter: Record<string, unknown> | null;
  frontMatterValid: boolean;
}

export interface DecodedPage {
  file: PageFile;
  fields: PageFields;
  /** Every link-like destination in the body (duplicates kept once). */
  urls: string[];
  warnings: Array<{ code: string; message: string; line?: number }>;
}

const HTML_URL_ATTR = /\b(src|href|srcset)=("([^"]*)"|'([^']*)')/g;
const LIQUID_URL_ATTRS = new Set(['url', 'src', 'page', 'href', 'content']);

function fieldsOf(file: PageFile): PageFields {
  const fm = file.frontMatter;
  const fields: PageFields = {
    hidden: fm?.hidden ?? false,
    noIndex: fm?.noIndex ?? false,
    frontMatter: fm ? fm.toObject() : null,
    frontMatterValid: fm ? fm.valid : true,
  };
  if (file.title) fields.title = file.title.text;
  if (fm) {
    if (fm.description !== undefined) fields.description = fm.description;
    if (fm.icon !== undefined) fields.icon = fm.icon;
    if (fm.cover !== undefined) {
      const cover: Omit<PageCover, 'fileId'> = { ref: fm.cover };
      if (fm.coverY !== undefined) cover.y = fm.coverY;
      if (fm.coverHeight !== undefined) cover.height = fm.coverHeight;
      fields.cover = cover;
    }
    if (fm.layout !== undefined) fields.layout = fm.layout;
    if (fm.metaLinks !== undefined) fields.metaLinks = fm.metaLinks;
  }
  return fields;
}

/** Stable fingerprint of page fields (sorted-key JSON, sha1). */
export function fieldsFingerprint(
  fields: Pick<PageFields, 'title' | 'description' | 'icon' | 'cover' | 'layout' | 'hidden' | 'noIndex' | 'metaLinks' | 'frontMatter'>,
): string {
  const canon = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canon);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  const c = fields.cover ? { ref: fields.cover.ref, y: fields.cover.y, height: fields.cover.height } : undefined;
  const data = {
    t: fields.title,
    d: fields.description,
    i: fields.icon,
    c,
    l: fields.layout,
    h: fields.hidden,
    n: fields.noIndex,
    m: fields.metaLinks,
    f: fields.frontMatter,
  };
  return createHash('sha1')
    .update(JSON.stringify(canon(data)))
    .digest('hex')
    .slice(0, 16);
}

/** Visit every destination in a parsed document; `edit` may return a replacement. */
function visitUrls(tree: Root, edit: (url: string) => string | undefined): void {
  const walk = (node: Nodes): void => {
    switch (node.type) {
      case 'link':
      case 'image':
      case 'definition': {
        const next = edit(node.url);
        if (next !== undefined) node.url = next;
        break;
      }
      case 'html': {
        if ((node.data as { opaque?: boolean } | undefined)?.opaque) break;
        let changed = false;
        const value = node.value.replace(HTML_URL_ATTR, (whole, name: string, _q: string, dq: string | undefined, sq: string | undefined) => {
          const raw = dq ?? sq ?? '';
          const quote = dq !== undefined ? '"' : "'";
          if (name === 'srcset') {
            const parts = raw.split(',').map((p) => {
              const m = /^(\s*)(\S+)(.*)$/.exec(p);
              if (!m) return p;
              const n = edit(m[2]!);
              if (n === undefined) return p;
              changed = true;
              return m[1]! + n + m[3]!;
            });
            return `${name}=${quote}${parts.join(',')}${quote}`;
          }
          const n = edit(raw);
          if (n === undefined) return whole;
          changed = true;
          return `${name}=${quote}${n}${quote}`;
        });
        if (changed) node.value = value;
        break;
      }
      case 'liquidBlock': {
        for (const a of node.attributes) {
          if ((a.name !== null && LIQUID_URL_ATTRS.has(a.name)) || (a.name === null && node.name === 'include')) {
            const n = edit(a.value);
            if (n !== undefined) a.value = n;
          }
        }
        break;
      }
      default:
        break;
    }
    if ('children' in node) for (const c of node.children as Nodes[]) walk(c);
  };
  walk(tree);
}

/** `onPhase`: the parse's phases (`ParseOptions.onPhase`), then `summary` (fields and destinations), for the per-phase benchmark. */
export function decodePage(text: string, maxLength?: number, onPhase?: (phase: ParsePhase | 'summary') => void): DecodedPage {
  const options: ParseOptions = {};
  if (maxLength !== undefined) options.maxLength = maxLength;
  if (onPhase) options.onPhase = onPhase;
  const file = parsePageFile(text, options);
  const seen = new Set<string>();
  visitUrls(file.document, (url) => {
    seen.add(url);
    return undefined;
  });
  const decoded = { file, fields: fieldsOf(file), urls: [...seen], warnings: file.warnings };
  onPhase?.('summary');
  return decoded;
}

/**
 * Style for the blocks export (re)writes in a changed page: GitBook's current exporter conventions,
 * with the file-level layout of the source file (line endings, BOM, trailing newlines, blank lines
 * after the front matter and title) so that unchanged parts keep their lines.
 */
export function changedPageStyle(source: Style): Style {
  return {
    ...currentStyle(),
    trailingNewlines: source.trailingNewlines,
    lineEnding: source.lineEnding,
    bom: source.bom,
    blankAfterFrontMatter: source.blankAfterFrontMatter,
    blankAfterTitle: source.blankAfterTitle,
  };
}

/**
 * Regenerate a page file: apply the fields that differ from what the text says (null: keep the
 * text's fields) and rewrite
 * destinations through `rewrite` (return undefined to keep one).
 *
 * `text` is the page's current markdown. `source` is the text of the blob the page was imported
 * from when `text` was edited since (undefined: `text` is that blob). The result is a minimal diff
 * against `source` (or `text`): blocks equal to the source keep their bytes, changed or new blocks
 * are written in GitBook's current style (see `changedPageStyle`). Returns `text` unchanged when
 * there is no source, no field differs and no destination is rewritten.
 */
export function encodePage(text: string, wanted: PageFields | null, rewrite: (url: string) => string | undefined, source?: string): string {
  const before = decodePage(text);
  const file = parsePageFile(text);
  const now = before.fields;
  const fields = wanted ?? now;
  let changed = source !== undefined && source !== text;
  let fm = file.frontMatter;
  const ensureFm = (): FrontMatter => {
    if (!fm) {
      fm = FrontMatter.create();
      file.frontMatter = fm;
    }
    return fm;
  };
  const setKey = (key: string, value: unknown) => {
    changed = true;
    if (value === undefined) fm?.delete(key);
    else ensureFm().set(key, value);
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  // Generic front matter keys first; dedicated fields override.
  if (fields.frontMatter && !same(fields.frontMatter, now.frontMatter)) {
    const old = now.frontMatter ?? {};
    for (const [k, v] of Object.entries(fields.frontMatter)) if (!same(v, old[k])) setKey(k, v);
    for (const k of Object.keys(old)) if (!(k in fields.frontMatter)) setKey(k, undefined);
  }
  if (fields.description !== now.description) setKey('description', fields.description);
  if (fields.icon !== now.icon) setKey('icon', fields.icon);
  if (!same(fields.layout, now.layout)) setKey('layout', fields.layout);
  if (!same(fields.metaLinks, now.metaLinks)) setKey('metaLinks', fields.metaLinks);
  if (fields.hidden !== now.hidden) setKey('hidden', fields.hidden ? true : undefined);
  if (fields.noIndex !== now.noIndex) setKey('noIndex', fields.noIndex ? true : undefined);
  if (!same(fields.cover, now.cover)) {
    setKey('cover', fields.cover?.ref);
    if (fields.cover?.y !== now.cover?.y) setKey('coverY', fields.cover?.y);
    if (fields.cover?.height !== now.cover?.height) setKey('coverHeight', fields.cover?.height);
  }
  if (fields.title !== undefined && fields.title !== now.title) {
    changed = true;
    file.title = file.title ? { ...file.title, text: fields.title } : { text: fields.title };
  }
  visitUrls(file.document, (url) => {
    const next = rewrite(url);
    if (next !== undefined && next !== url) {
      changed = true;
      return next;
    }
    return undefined;
  });
  if (!changed) return text;
  const baseText = source ?? text;
  const base = source === undefined ? before.file : parsePageFile(source);
  file.style = changedPageStyle(base.style);
  return serializePageFile(file, { original: { text: baseText, page: base } });
}

/** A new page (no source blob) written entirely in GitBook's current style. */
export function serializeNewPage(text: string): string {
  const file = parsePageFile(text);
  file.style = changedPageStyle(currentStyle());
  return serializePageFile(file);
}

/** Write a page from its model alone (no byte reuse): used by `roundtrip --reserialize`. */
export function reserializePage(text: string): string {
  return serializePageFile(parsePageFile(text));
}

/** Leading emoji of a title, if any. */
export function leadingEmoji(title: string): string | undefined {
  const m = /^(\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic}|\p{Emoji_Modifier})*)\s/u.exec(title);
  return m ? m[1] : undefined;
}
