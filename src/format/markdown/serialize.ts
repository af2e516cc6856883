import type { PageFile, SerializeOptions } from './types.js';
import { serializeFromModel } from './serialize/from-model.js';
import { serializeMinimalDiff } from './serialize/minimal-diff.js';

/** Serialize a page file in GitBook's exporter style (driven by `page.style`). */
export function serializePageFile(page: PageFile, options: SerializeOptions = {}): string {
  if (options.original) return serializeMinimalDiff(page, options.original);
  return serializeFromModel(page);
}
