import type { Element, ElementContent } from 'hast';
import type { State } from 'mdast-util-to-hast';
import type { BlockContent, DefinitionContent } from 'mdast';
import type { LinkResolver } from './context.js';

/** A `{% name … %}` block as Folio's markdown parser gives it (the structure of src/format's LiquidBlock). */
export interface LiquidBlock {
  type: 'liquidBlock';
  name: string;
  attributes: Array<{ name: string | null; value: string }>;
  selfClosing: boolean;
  children: Array<BlockContent | DefinitionContent>;
}

/** What every block handler gets: the to-hast state, the page's link resolver and a page-unique counter. */
export interface BlockContext {
  state: State;
  links: LinkResolver;
  nextId(prefix: string): string;
}

/** Renders one GitBook block (a Liquid block of the given names) to hast. */
export interface BlockRenderer {
  names: readonly string[];
  render(node: LiquidBlock, ctx: BlockContext): Element | ElementContent[];
}
