import type { PageFile, SerializeOptions } from '../types.js';
import { serializeFromModel } from './from-model.js';
import { serializeMinimalDiff } from './minimal-diff.js';

/** Serialize a page file in GitBook's exporter style (driven by `page.style`). */
export function serializePageFile(page: PageFile, options: SerializeOptions = {}): string {
  if (options.original) return serializeMinimalDiff(page, options.original);
  return serializeFromModel(page);
}
