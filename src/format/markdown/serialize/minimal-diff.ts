import type { Root, RootContent } from 'mdast';
import type { PageFile } from '../types.js';
import { serializeFromModel, serializeBlock, serializeTitleLine } from './from-model.js';
import { nodeKey, nodesEqual } from '../equal.js';

/** The original text as the parser saw it (BOM removed, CRLF normalized). */
function normalized(text: string, page: PageFile): string {
  let t = page.style.bom && text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (page.style.lineEnding === '\r\n') t = t.replace(/\r\n/g, '\n');
  return t;
}

function span(text: string, node: { position?: RootContent['position'] }): string | null {
  const s = node.position?.start.offset;
  const e = node.position?.end.offset;
  return s === undefined || e === undefined ? null : text.slice(s, e);
}

/**
 * Minimal-diff serialization: blocks (and the front matter and title) equal to the original keep
 * their original source bytes and the original separators between them; only changed or new
 * blocks are serialized, in the page's style.
 */
export function serializeMinimalDiff(page: PageFile, original: { text: string; page: PageFile }): string {
  const orig = original.page;
  const text = normalized(original.text, orig);
  const origBlocks = orig.document.children;
  if (origBlocks.some((b) => !b.position) || (origBlocks.length === 1 && (origBlocks[0]!.data as { opaque?: boolean } | undefined)?.opaque)) {
    return serializeFromModel(page);
  }
  const { style } = page;
  let out = '';
  // Header: front matter + title.
  const fmSame = (page.frontMatter?.toString() ?? null) === (orig.frontMatter?.toString() ?? null);
  const titleSame = nodesEqual(page.title, orig.title);
  const firstOrig = origBlocks[0];
  const headerEnd = firstOrig?.position?.start.offset ?? text.replace(/\n+$/, '').length;
  if (fmSame && titleSame && style.blankAfterTitle === orig.style.blankAfterTitle && style.blankAfterFrontMatter === orig.style.blankAfterFrontMatter) {
    out = text.slice(0, headerEnd);
  } else {
    const parts: string[] = [];
    if (page.frontMatter) parts.push(fmSame && orig.frontMatter ? text.slice(0, text.indexOf('\n---', 3) + 4) : `---\n${page.frontMatter.toString()}---`);
    if (page.title) {
      const t = titleSame && orig.title ? titleSourceLine(text, orig) : null;
      const line = t ?? serializeTitleLine(page);
      parts.push(parts.length ? '\n'.repeat(style.blankAfterFrontMatter) + line : line);
    }
    out = parts.join('\n');
    if (out !== '' && page.document.children.length) out += '\n' + '\n'.repeat(page.title ? style.blankAfterTitle : style.blankAfterFrontMatter);
  }

  // Body: match unchanged blocks in order.
  const byKey = new Map<string, number[]>();
  origBlocks.forEach((b, i) => {
    const k = nodeKey(b);
    const list = byKey.get(k);
    if (list) list.push(i);
    else byKey.set(k, [i]);
  });
  let cursor = 0;
  let prevOrig = -1;
  page.document.children.forEach((block, i) => {
    const candidates = byKey.get(nodeKey(block)) ?? [];
    const match = candidates.find((c) => c >= cursor);
    let source: string | null = null;
    if (match !== undefined) {
      source = span(text, origBlocks[match]!);
      cursor = match + 1;
    }
    if (i > 0) {
      if (match !== undefined && prevOrig >= 0 && match === prevOrig + 1) {
        out += text.slice(origBlocks[prevOrig]!.position!.end.offset!, origBlocks[match]!.position!.start.offset!);
      } else {
        const blank = (block.data as { blankBefore?: number } | undefined)?.blankBefore ?? 1;
        out += '\n' + '\n'.repeat(blank);
      }
    }
    out += source ?? serializeBlock(block, style);
    prevOrig = match ?? -1;
  });
  out = out.replace(/\n+$/, '') + style.trailingBlankLines + '\n'.repeat(style.trailingNewlines) + style.trailingSpaces;
  if (style.lineEnding === '\r\n') out = out.replace(/\n/g, '\r\n');
  if (style.bom) out = '\uFEFF' + out;
  return out;
}

function titleSourceLine(text: string, orig: PageFile): string | null {
  const start = orig.frontMatter ? text.indexOf('\n---', 3) + 4 : 0;
  const m = /^\s*(#[^\n]*)/.exec(text.slice(start));
  return m ? m[1]! : null;
}

export type { Root };
