import type { Processor } from 'unified';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmFootnoteFromMarkdown, gfmFootnoteToMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown, gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown, gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown, gfmTaskListItemToMarkdown } from 'mdast-util-gfm-task-list-item';

export interface GitbookGfmOptions {
  tablePipeAlign?: boolean;
  tableCellPadding?: boolean;
}

/**
 * GFM as GitBook reads and writes it: tables, footnotes, strikethrough and task lists, but no
 * autolink literals — GitBook keeps bare `https://…` / `a@b.c` / `www.` text as text (it never
 * escapes `www\.` or `wss\://`, and writes no `[url](url)` for them).
 */
export function remarkGitbookGfm(this: Processor, options: GitbookGfmOptions = {}): void {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[]; toMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(gfmFootnote(), gfmStrikethrough(), gfmTable(), gfmTaskListItem());
  (data.fromMarkdownExtensions ??= []).push(gfmFootnoteFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown());
  (data.toMarkdownExtensions ??= []).push(
    gfmFootnoteToMarkdown(),
    gfmStrikethroughToMarkdown(),
    gfmTableToMarkdown({ tablePipeAlign: options.tablePipeAlign ?? true, tableCellPadding: options.tableCellPadding ?? true }),
    gfmTaskListItemToMarkdown(),
  );
}
