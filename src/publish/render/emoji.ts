import { gemoji } from 'gemoji';
import type { Root, Text } from 'mdast';
import { visit } from 'unist-util-visit';

let byName: Map<string, string> | null = null;

/** GitHub's emoji names (gemoji, the list GitBook's `:shortcode:` follows) → the character. */
function emojiByName(): Map<string, string> {
  byName ??= new Map(gemoji.flatMap((g) => g.names.map((n) => [n, g.emoji] as const)));
  return byName;
}

/** The character of a shortcode name, or undefined for a name gemoji does not know. */
export function emojiFor(name: string): string | undefined {
  return emojiByName().get(name);
}

/**
 * `:name:` shortcodes in the page's text become the emoji character, as GitBook shows them. Only text nodes are
 * visited: code spans, code blocks, math, HTML and link destinations keep their colons; an unknown name stays as
 * written.
 */
export function replaceEmojiShortcodes(tree: Root): void {
  visit(tree, 'text', (node: Text) => {
    if (node.value.includes(':')) node.value = node.value.replace(/:([a-z0-9_+-]{1,60}):/g, (whole, name: string) => emojiFor(name) ?? whole);
  });
}
