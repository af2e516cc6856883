import type { Root, Nodes, Parent } from 'mdast';
import type { LiquidBlock, PageFile } from './types.js';
import { defaultRegistry } from './plugins/index.js';

export type ReferenceKind = 'link' | 'image' | 'definition' | 'html' | 'liquid' | 'frontMatter';

/** One path/URL reference found in a page, with a setter that rewrites it in place. */
export interface Reference {
  kind: ReferenceKind;
  /** The reference as written (not percent-decoded; Markdown escapes already removed). */
  url: string;
  /** mdast node type holding it (`link`, `image`, `definition`, `html`, `liquidBlock`, …). */
  nodeType: string;
  /** HTML attribute / Liquid attribute name / front-matter key (`null` for positional Liquid args). */
  attribute?: string | null;
  /** Liquid tag name for `liquid` references. */
  tag?: string;
  /** Link title (`"mention"` marks a page mention). */
  title?: string | null;
  /** Replace the reference; a no-op when `url` is unchanged. */
  set(url: string): void;
}

const registry = defaultRegistry();

/** HTML attributes that hold references. */
const HTML_ATTR = /(\s(?:src|href|srcset|data-url|data-src|poster|data-card-cover|data-href)=)(?:"([^"]*)"|'([^']*)')/gi;

/** Every link/image/asset/page reference in a document (and, given a page, its front-matter `cover`). */
export function collectReferences(target: Root | PageFile): Reference[] {
  const refs: Reference[] = [];
  const doc = 'document' in target ? target.document : target;
  const walk = (node: Nodes): void => {
    switch (node.type) {
      case 'link':
      case 'image':
      case 'definition': {
        const n = node;
        refs.push({
          kind: node.type,
          url: n.url,
          nodeType: node.type,
          title: n.title ?? null,
          set(url) {
            if (url !== n.url) n.url = url;
          },
        });
        break;
      }
      case 'html':
        collectHtml(node, refs);
        break;
      case 'liquidBlock':
        collectLiquid(node as LiquidBlock, refs);
        break;
    }
    if ('children' in node) for (const c of (node as Parent).children) walk(c as Nodes);
  };
  walk(doc);
  if ('document' in target && target.frontMatter) {
    const fm = target.frontMatter;
    const cover = fm.cover;
    if (cover !== undefined) {
      refs.push({
        kind: 'frontMatter',
        url: cover,
        nodeType: 'yaml',
        attribute: 'cover',
        set(url) {
          if (url !== fm.cover) fm.set('cover', url);
        },
      });
    }
  }
  return refs;
}

function collectHtml(node: { value: string }, refs: Reference[]): void {
  // Positions are recomputed from the current value at each `set`, so several rewrites compose.
  let i = 0;
  for (const m of node.value.matchAll(HTML_ATTR)) {
    const index = i++;
    const attribute = m[1]!.trim().replace(/=$/, '').toLowerCase();
    const url = m[2] ?? m[3]!;
    refs.push({
      kind: 'html',
      url,
      nodeType: 'html',
      attribute,
      set(next) {
        if (next === url) return;
        let k = 0;
        node.value = node.value.replace(HTML_ATTR, (whole, prefix: string, dq: string | undefined, _sq: string | undefined) => {
          if (k++ !== index) return whole;
          const q = dq !== undefined ? '"' : "'";
          return `${prefix}${q}${next}${q}`;
        });
      },
    });
  }
}

function collectLiquid(node: LiquidBlock, refs: Reference[]): void {
  const names = registry.referenceAttributes(node);
  node.attributes.forEach((attr, index) => {
    const positional = attr.name === null && index === node.attributes.findIndex((a) => a.name === null);
    if (!(attr.name !== null ? names.includes(attr.name) : positional && names.includes(null))) return;
    refs.push({
      kind: 'liquid',
      url: attr.value,
      nodeType: 'liquidBlock',
      attribute: attr.name,
      tag: node.name,
      set(url) {
        if (url !== attr.value) attr.value = url;
      },
    });
  });
}

/**
 * Rewrite references: `fn` returns the new target (or `undefined`/the same string to keep it).
 * Returns how many references changed.
 */
export function rewriteReferences(target: Root | PageFile, fn: (ref: Reference) => string | undefined | null): number {
  let changed = 0;
  for (const ref of collectReferences(target)) {
    const next = fn(ref);
    if (typeof next === 'string' && next !== ref.url) {
      ref.set(next);
      changed++;
    }
  }
  return changed;
}
