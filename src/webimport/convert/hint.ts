import type { Element } from 'hast';
import { select } from 'hast-util-select';
import type { BlockContent, DefinitionContent } from 'mdast';
import { classNames } from '../extract/index.js';
import type { HtmlConstruct } from './construct.js';
import { liquidBlock } from './liquid.js';
import { remove } from '../extract/remove.js';
import { plainText } from './text.js';

type HintStyle = 'info' | 'success' | 'warning' | 'danger';

/** Admonition kinds of MkDocs/Material, Sphinx/docutils, Docusaurus and HonKit/GitBook hints → GitBook's four styles. */
const STYLES: Record<string, HintStyle> = {
  note: 'info',
  info: 'info',
  seealso: 'info',
  abstract: 'info',
  summary: 'info',
  tldr: 'info',
  todo: 'info',
  question: 'info',
  help: 'info',
  faq: 'info',
  example: 'info',
  quote: 'info',
  cite: 'info',
  secondary: 'info',
  primary: 'info',
  tip: 'success',
  hint: 'success',
  success: 'success',
  check: 'success',
  done: 'success',
  important: 'success',
  warning: 'warning',
  caution: 'warning',
  attention: 'warning',
  danger: 'danger',
  error: 'danger',
  failure: 'danger',
  fail: 'danger',
  missing: 'danger',
  bug: 'danger',
};

const TITLE = 'p.admonition-title, .admonition-title, [class*="admonitionHeading"], :scope > summary, .hints-icon, .hint-title';

/** The hint style of an admonition element, or null when it is none. */
export function hintStyle(element: Element): HintStyle | null {
  const classes = classNames(element);
  const kind = (prefix: string): HintStyle | null => {
    for (const c of classes) if (c.startsWith(prefix) && STYLES[c.slice(prefix.length)]) return STYLES[c.slice(prefix.length)]!;
    return null;
  };
  if (classes.includes('admonition') || (element.tagName === 'details' && classes.some((c) => STYLES[c]))) {
    return classes.map((c) => STYLES[c]).find(Boolean) ?? 'info';
  }
  if (classes.includes('theme-admonition')) return kind('theme-admonition-') ?? kind('alert--') ?? 'info';
  if (classes.includes('hints-alert') || (classes.includes('alert') && classes.some((c) => c.startsWith('alert-')))) {
    return kind('alert-') ?? kind('alert--') ?? 'info';
  }
  if (classes.includes('hint')) return kind('hint-') ?? (STYLES[String(element.properties.dataStyle ?? '')] as HintStyle | undefined) ?? 'info';
  if (
    element.tagName === 'div' &&
    classes.length === 1 &&
    ['note', 'warning', 'tip', 'important', 'caution', 'danger', 'error', 'attention', 'seealso', 'hint'].includes(classes[0]!)
  ) {
    return STYLES[classes[0]!]!;
  }
  return null;
}

/**
 * Admonitions → `{% hint style="…" %}`. A title that only names the kind ("Note", "Warning") is dropped (the style
 * says it); another title stays as a bold first line.
 */
export const hintConstruct: HtmlConstruct = {
  name: 'hint',
  tagNames: ['div', 'aside', 'details', 'section'],
  matches: (element) => hintStyle(element) !== null,
  toMdast(state, element) {
    const style = hintStyle(element)!;
    const copy = structuredClone(element);
    const titleElement = select(TITLE, copy);
    const title = titleElement ? plainText(titleElement) : '';
    remove(copy, [TITLE]);
    const body = state.toFlow(state.all(copy)) as (BlockContent | DefinitionContent)[];
    const defaultTitle = !title || STYLES[title.toLowerCase().replace(/[^a-z]/g, '')] !== undefined;
    if (!defaultTitle) body.unshift({ type: 'paragraph', children: [{ type: 'strong', children: [{ type: 'text', value: title }] }] });
    if (body.length === 0) body.push({ type: 'paragraph', children: [] });
    return liquidBlock('hint', { style }, body) as never;
  },
};
