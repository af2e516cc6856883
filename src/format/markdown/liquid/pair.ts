import type { Root, RootContent, Parent } from 'mdast';
import type { LiquidBlock, LiquidTag, MarkdownWarning } from '../types.js';
import type { LiquidRegistry } from './registry.js';
import { parseLiquidTag } from './tag.js';
import { LiquidUnmatchedEndError, LiquidUnterminatedError } from '../errors.js';

/**
 * Pair `liquidTag` lines among siblings into `liquidBlock` nodes. Tags with an optional end
 * (`embed`, `file`) that never meet their end tag become self-closing blocks; tags that require
 * one stay `liquidTag` nodes (verbatim) and produce a warning.
 */
export function pairLiquidTags(tree: Root, registry: LiquidRegistry, warnings: MarkdownWarning[]): void {
  hoistTrailingEnds(tree as Parent);
  walk(tree as Parent);

  function walk(parent: Parent): void {
    if (!Array.isArray(parent.children)) return;
    for (const child of parent.children) {
      if ('children' in child && child.type !== 'liquidBlock') walk(child as Parent);
    }
    if (parent.children.some((c) => c.type === 'liquidTag')) {
      parent.children = pair(parent.children as RootContent[]) as Parent['children'];
    }
  }

  function toBlock(tag: LiquidTag, selfClosing: boolean): LiquidBlock {
    const parsed = parseLiquidTag(tag.value)!;
    const block: LiquidBlock = { type: 'liquidBlock', name: parsed.name, attributes: parsed.attributes, selfClosing, children: [] };
    if (parsed.spacing[0] !== ' ' || parsed.spacing[1] !== ' ') block.data = { openSpacing: parsed.spacing };
    if (tag.position) block.position = structuredClone(tag.position);
    return block;
  }

  function pair(children: RootContent[]): RootContent[] {
    const out: RootContent[] = [];
    const stack: Array<{ index: number; tag: LiquidTag }> = [];
    const finishOpen = (entry: { index: number; tag: LiquidTag }) => {
      const spec = registry.get(entry.tag.name);
      if (spec && spec.end !== 'required') out[entry.index] = toBlock(entry.tag, true);
      else warnings.push(new LiquidUnterminatedError(entry.tag.name, entry.tag.position?.start.line).toWarning());
    };
    for (const child of children) {
      if (child.type !== 'liquidTag') {
        out.push(child);
        continue;
      }
      const tag = child as LiquidTag;
      const spec = registry.get(tag.name);
      if (!tag.closing) {
        if (spec && spec.end === 'none') out.push(toBlock(tag, true));
        else {
          stack.push({ index: out.length, tag });
          out.push(tag);
        }
        continue;
      }
      let s = stack.length - 1;
      while (s >= 0 && stack[s]!.tag.name !== tag.name) s--;
      if (s < 0) {
        warnings.push(new LiquidUnmatchedEndError(tag.name, tag.position?.start.line).toWarning());
        out.push(tag);
        continue;
      }
      for (const inner of stack.splice(s + 1)) finishOpen(inner);
      const open = stack.pop()!;
      const block = toBlock(open.tag, false);
      block.children = out.splice(open.index + 1) as LiquidBlock['children'];
      out.pop();
      const closeParsed = parseLiquidTag(tag.value)!;
      if (closeParsed.spacing[0] !== ' ' || closeParsed.spacing[1] !== ' ') (block.data ??= {}).closeSpacing = closeParsed.spacing;
      const indent = (tag.data as { indent?: string } | undefined)?.indent;
      if (indent) (block.data ??= {}).closeIndent = indent;
      if (block.position && tag.position) block.position.end = { ...tag.position.end };
      const first = block.children[0];
      const last = block.children[block.children.length - 1];
      if (open.tag.position && tag.position) {
        const after = (first?.position?.start.line ?? tag.position.start.line) - open.tag.position.end.line - 1;
        if (after > 0) (block.data ??= {}).blankAfterOpen = after;
        if (last?.position) {
          const before = tag.position.start.line - last.position.end.line - 1;
          if (before > 0) (block.data ??= {}).blankBeforeClose = before;
        }
      }
      out.push(block);
    }
    for (const entry of stack.reverse()) finishOpen(entry);
    return out;
  }
}

/**
 * GitBook writes the end tag of a block that ends with a list on the line right after the last item, indented
 * as its content (`* Faster sync\n  {% endupdate %}`): the parse puts it inside that item, where nothing opens it.
 * Such an end tag, last in the last item of a list and unopened there, belongs after the list (bottom-up, so it
 * leaves nested lists too); its indentation is kept for the serializer.
 */
function hoistTrailingEnds(parent: Parent): void {
  for (const child of parent.children) if ('children' in child && child.type !== 'liquidBlock') hoistTrailingEnds(child as Parent);
  for (let i = 0; i < parent.children.length; i++) {
    const list = parent.children[i]!;
    if (list.type !== 'list') continue;
    const item = list.children.at(-1);
    const last = item?.children.at(-1) as RootContent | undefined;
    if (!item || item.children.length < 2 || last?.type !== 'liquidTag' || !(last as LiquidTag).closing) continue;
    const tag = last as LiquidTag;
    if (item.children.some((c) => (c as RootContent).type === 'liquidTag' && !(c as LiquidTag).closing && (c as LiquidTag).name === tag.name)) continue;
    item.children.pop();
    const column = tag.position?.start.column ?? 1;
    if (column > 1 && !(tag.data as { indent?: string } | undefined)?.indent)
      (tag.data ??= {} as never) && ((tag.data as { indent?: string }).indent = ' '.repeat(column - 1));
    parent.children.splice(i + 1, 0, tag as never);
  }
}
