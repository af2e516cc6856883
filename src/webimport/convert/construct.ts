import type { Element } from 'hast';
import type { State } from 'hast-util-to-mdast';
import type { Nodes as MdastNodes } from 'mdast';

/** One GitBook construct recognised in HTML: which elements it takes, and the mdast it makes of them. */
export interface HtmlConstruct {
  name: string;
  /** Element names it may match (the handler is registered for these). */
  tagNames: string[];
  matches(element: Element): boolean;
  toMdast(state: State, element: Element): MdastNodes | MdastNodes[] | undefined;
}
