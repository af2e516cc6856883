import type { ConvertedFile } from './types.js';

/**
 * A markdown file as a page: kept byte for byte (GitBook's converter reads it, front matter and all); the title is
 * its first `# heading`, else the file name.
 */
export function markdownTitle(name: string, text: string): string {
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body);
  return heading ? heading[1]!.trim() : name.replace(/\.[^.]*$/, '');
}

export type { ConvertedFile };
