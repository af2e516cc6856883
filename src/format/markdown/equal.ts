import type { Nodes } from 'mdast';
import type { PageFile } from './types.js';

/** Deep equality of two values, ignoring `position` keys (source locations). */
export function nodesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!nodesEqual(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a).filter((k) => k !== 'position' && (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => k !== 'position' && (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!nodesEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

/** Stable key of a node without positions (used to match unchanged blocks). */
export function nodeKey(node: Nodes): string {
  return JSON.stringify(node, (k, v) => (k === 'position' ? undefined : v));
}

/** Model equality of two page files: front matter text, title, document (ignoring positions) and style. */
export function pageFilesEqual(a: PageFile, b: PageFile, options: { ignoreStyle?: boolean } = {}): boolean {
  const fa = a.frontMatter?.toString() ?? null;
  const fb = b.frontMatter?.toString() ?? null;
  if (fa !== fb) return false;
  if (!nodesEqual(a.title, b.title)) return false;
  if (!options.ignoreStyle && !nodesEqual(a.style, b.style)) return false;
  return nodesEqual(a.document, b.document);
}

/** First difference between two page models, for test diagnostics. */
export function describeDifference(a: PageFile, b: PageFile): string | null {
  if ((a.frontMatter?.toString() ?? null) !== (b.frontMatter?.toString() ?? null)) return 'frontMatter';
  if (!nodesEqual(a.title, b.title)) return `title ${JSON.stringify(a.title)} vs ${JSON.stringify(b.title)}`;
  for (const k of Object.keys(a.style) as Array<keyof PageFile['style']>)
    if (a.style[k] !== b.style[k]) return `style.${k}: ${String(a.style[k])} vs ${String(b.style[k])}`;
  const ca = a.document.children;
  const cb = b.document.children;
  for (let i = 0; i < Math.max(ca.length, cb.length); i++) {
    if (!nodesEqual(ca[i], cb[i])) return `block ${i}: ${ca[i] ? nodeKey(ca[i]!).slice(0, 300) : '∅'} vs ${cb[i] ? nodeKey(cb[i]!).slice(0, 300) : '∅'}`;
  }
  return null;
}
