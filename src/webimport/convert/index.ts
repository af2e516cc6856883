import type { Element, Root } from 'hast';
import { defaultHandlers, type Handle, type Options } from 'hast-util-to-mdast';
import rehypeRemark from 'rehype-remark';
import type { Root as MdastRoot } from 'mdast';
import { unified } from 'unified';
import { codeConstruct } from './code.js';
import type { HtmlConstruct } from './construct.js';
import { figureConstruct } from './figure.js';
import { hintConstruct } from './hint.js';
import { mathConstruct } from './math.js';
import { tabsConstruct } from './tabs.js';

export { rewriteTargets } from './targets.js';
export type { Targets } from './targets.js';

/** In the order they are tried on one element. */
export const CONSTRUCTS: HtmlConstruct[] = [mathConstruct, tabsConstruct, hintConstruct, codeConstruct, figureConstruct];

/** rehype-remark handlers: for each element name, the first construct that matches, else hast-util-to-mdast's own. */
function handlers(): Record<string, Handle> {
  const result: Record<string, Handle> = {};
  const names = new Set(CONSTRUCTS.flatMap((c) => c.tagNames));
  for (const name of names) {
    const fallback = (defaultHandlers as Record<string, Handle | undefined>)[name];
    const candidates = CONSTRUCTS.filter((c) => c.tagNames.includes(name));
    result[name] = (state, element, parent) => {
      for (const construct of candidates) {
        if (construct.matches(element)) {
          const made = construct.toMdast(state, element);
          if (made) state.patch(element, Array.isArray(made) ? made[0]! : made);
          return made;
        }
      }
      return fallback ? fallback(state, element, parent) : state.all(element);
    };
  }
  // Form controls and leftovers of interactive widgets carry no content.
  result.button = () => undefined;
  result.input = () => undefined;
  return result;
}

/** The main content (hast) as mdast in Folio's markdown model: GitBook constructs as Liquid blocks, math, code. */
export function htmlToMdast(main: Element): MdastRoot {
  const options: Options = { handlers: handlers() };
  const root: Root = { type: 'root', children: [main] };
  return unified().use(rehypeRemark, options).runSync(root) as MdastRoot;
}
