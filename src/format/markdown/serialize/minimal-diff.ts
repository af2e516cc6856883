import type { PageFile } from '../types.js';
import { serializeFromModel } from '../serialize.js';

export function serializeMinimalDiff(page: PageFile, _original: { text: string; page: PageFile }): string {
  return serializeFromModel(page);
}
