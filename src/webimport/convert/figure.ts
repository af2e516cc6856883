import type { Element } from 'hast';
import { select } from 'hast-util-select';
import { isAllowedImageUrl } from '../../url-policy/index.js';
import { classNames } from '../extract/index.js';
import type { HtmlConstruct } from './construct.js';
import { plainText } from './text.js';

const CAPTION = 'figcaption, p.caption, .caption';

/** A figure: an image with a caption (`<figure>`, docutils' `div.figure`). */
function isFigure(element: Element): boolean {
  if (element.tagName !== 'figure' && !(element.tagName === 'div' && classNames(element).includes('figure'))) return false;
  return select('img', element) !== undefined && select(CAPTION, element) !== undefined && select('pre', element) === undefined;
}

/** Images with captions → GitBook's `<figure><img …><figcaption><p>…</p></figcaption></figure>`. */
export const figureConstruct: HtmlConstruct = {
  name: 'figure',
  tagNames: ['figure', 'div'],
  matches: isFigure,
  toMdast(_state, element) {
    const img = select('img', element)!;
    const caption = plainText(select(CAPTION, element)!).replace(/¶$/, '').trim();
    const src = String(img.properties.src ?? '');
    const alt = String(img.properties.alt ?? '');
    // The image left out by the URL policy (keepOrDropImages ran before): its caption stays.
    if (!isAllowedImageUrl(src)) return { type: 'paragraph', children: [{ type: 'text', value: caption }] };
    return {
      type: 'html',
      value: `<figure><img src="${attribute(src)}" alt="${attribute(alt)}"><figcaption><p>${escapeHtml(caption)}</p></figcaption></figure>`,
    };
  },
};

function attribute(value: string): string {
  return escapeHtml(value).replace(/"/g, '&quot;');
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
