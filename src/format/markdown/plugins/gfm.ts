import type { Processor } from 'unified';
import type { Extension } from 'micromark-util-types';
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
  (data.micromarkExtensions ??= []).push(...gitbookGfmSyntax());
  (data.fromMarkdownExtensions ??= []).push(gfmFootnoteFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown());
  (data.toMarkdownExtensions ??= []).push(
    gfmFootnoteToMarkdown(),
    gfmStrikethroughToMarkdown(),
    gfmTableToMarkdown({ tablePipeAlign: options.tablePipeAlign ?? true, tableCellPadding: options.tableCellPadding ?? true }),
    gfmTaskListItemToMarkdown(),
  );
}

/**
 * For each GFM syntax extension, a check on the source that is true whenever one of its constructs can succeed in
 * it (it may be true when none does): a parse without the extensions whose check is false gives the same tree, and
 * skips their attempts (the table's runs at the start of every flow line, the footnote's at every `]`).
 * - footnote: a call and a definition both start with `[^` in the source (micromark-extension-gfm-footnote);
 * - strikethrough: a `~` sequence (its other hooks, the attention marker and the span resolver, act on `~` only);
 * - table: the delimiter row has a `|`, or a `:` next to a `-` (`:-`, `-:`): a row of `-` alone is a thematic break
 *   or a setext underline (micromark-extension-gfm-table's `seen`);
 * - task list item: `[`, one space, tab, line ending, `x` or `X`, then `]`.
 * Unknown extensions (math, front matter, Liquid) are always kept.
 */
const POSSIBLE = new WeakMap<Extension, (text: string) => boolean>();

/** The micromark extensions of GitBook's GFM, in the order the parser uses them. */
function gitbookGfmSyntax(): Extension[] {
  const footnote = gfmFootnote();
  const strikethrough = gfmStrikethrough();
  const table = gfmTable();
  const taskList = gfmTaskListItem();
  POSSIBLE.set(footnote, (text) => text.includes('[^'));
  POSSIBLE.set(strikethrough, (text) => text.includes('~'));
  POSSIBLE.set(table, (text) => /\||:-|-:/.test(text));
  POSSIBLE.set(taskList, (text) => /\[[\s xX]\]/.test(text));
  return [footnote, strikethrough, table, taskList];
}

/** `extensions` less the GFM ones none of whose constructs can occur in `text` (the order of the others kept). */
export function syntaxFor(extensions: readonly Extension[], text: string): Extension[] {
  return extensions.filter((e) => POSSIBLE.get(e)?.(text) ?? true);
}
