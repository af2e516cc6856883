import type { Handle, State, Info, Unsafe } from 'mdast-util-to-markdown';
import { defaultHandlers } from 'mdast-util-to-markdown';
import type { Link, Image, Definition, Parents } from 'mdast';
import type { Style } from '../types.js';

const BASE = 0xe001;

function marker(i: number): string {
  return String.fromCharCode(BASE + i);
}

/** Unsafe patterns making the per-character markers escape inside destinations. */
export function destinationUnsafe(style: Style): Unsafe[] {
  return [...style.destinationEscapes].map((_, i) => ({ character: marker(i), inConstruct: ['destinationRaw', 'destinationLiteral'] }));
}

/**
 * Links/images/definitions whose destinations carry the file's legacy backslash escapes
 * (`wiki/American\_National`, `\~user`): each such character is swapped for a marker that is
 * always escaped, then written back as `\c`.
 */
export function destinationHandler(style: Style, type: 'link' | 'image' | 'definition'): Handle {
  const base = defaultHandlers[type] as unknown as (node: Link | Image | Definition, parent: Parents | undefined, state: State, info: Info) => string;
  const inner = (node: Link | Image | Definition, parent: Parents | undefined, state: State, info: Info): string => {
    if (type === 'link' && (node.data as { autolink?: boolean } | undefined)?.autolink) return asAutolink(node as Link, parent, state, info);
    const angle = (node.data as { angle?: boolean } | undefined)?.angle;
    if (angle === true && type !== 'definition' && !/[\0- \u007F]/.test(node.url) && !node.title) {
      // The source used `<…>` where the default would not: write the literal form.
      const exit = state.enter(type);
      const sub = state.enter('label');
      const label =
        type === 'image'
          ? state.safe((node as Image).alt ?? '', { before: '![', after: ']' })
          : state.containerPhrasing(node as Link, { before: '[', after: ']', now: { line: 1, column: 1 }, lineShift: 0 });
      sub();
      const dest = state.enter('destinationLiteral');
      const url = state.safe(node.url, { before: '<', after: '>' });
      dest();
      exit();
      return `${type === 'image' ? '!' : ''}[${label}](<${url}>)`;
    }
    return base(node, parent, state, info);
  };
  // Written `<url>` by mdast-util-to-markdown itself where its text is its address (else as a resource link).
  const asAutolink = (node: Link, parent: Parents | undefined, state: State, info: Info): string => {
    const options = state.options;
    const resource = options.resourceLink;
    options.resourceLink = false;
    try {
      return base(node, parent, state, info);
    } finally {
      options.resourceLink = resource;
    }
  };
  const withAmp = (out: string): string => {
    if (style.destinationAmpersand !== 'plain' || !out.includes('\\&')) return out;
    const at = type === 'definition' ? out.indexOf(']:') : out.lastIndexOf('](');
    return at < 0 ? out : out.slice(0, at) + out.slice(at).replace(/\\&/g, '&');
  };
  const withAlt = (out: string): string => {
    const underscore = style.escapeUnderscore === 'always';
    if (type !== 'image' || !(style.altApos || style.altAmp || style.altQuot || style.altHex || style.altPlain || underscore)) return out;
    // Alt text is prose: a page escaping every `_` escapes it there too (`![batch\_size=1.](…)`).
    // HTML-encoded captions: `&` first (an escaped `\&` too), so that `&apos;` is not encoded again.
    const encode = (label: string) => {
      const escaped = underscore ? label.replace(/\\.|_/g, (m) => (m === '_' ? '\\_' : m)) : label;
      const amp = style.altAmp ? escaped.replace(/\\?&/g, '&amp;') : escaped;
      const apos = style.altApos ? amp.replace(/'/g, '&apos;') : amp;
      return altCaption(style.altQuot ? apos.replace(/\\?"/g, '&quot;') : apos, style);
    };
    return out.replace(/^!\[((?:\\.|[^\\\]])*)\]/, (_, label: string) => `![${encode(label)}]`);
  };
  return (node: Link | Image | Definition, parent: Parents | undefined, state: State, info: Info) =>
    withRaw(node, withAlt(withAmp(outer(node, parent, state, info))));
  function outer(node: Link | Image | Definition, parent: Parents | undefined, state: State, info: Info): string {
    // Inside `<…>` parentheses need no escape and GitBook writes them plain (`<assets/image (53).png>`).
    const angle = (node.data as { angle?: boolean } | undefined)?.angle ?? (/[\0- \u007F]/.test(node.url) || (!node.url && 'title' in node && !!node.title));
    const chars = [...style.destinationEscapes].filter((c) => !(angle && (c === '(' || c === ')')));
    if (chars.length === 0 || !chars.some((c) => node.url.includes(c)) || /[\uE001-\uE0FF]/.test(node.url)) return inner(node, parent, state, info);
    const url = node.url;
    let swapped = url;
    chars.forEach((c, i) => (swapped = swapped.replaceAll(c, marker(i))));
    const copy = { ...node, url: swapped };
    let out = inner(copy, parent, state, info);
    chars.forEach((c, i) => (out = out.replaceAll(`&#x${(BASE + i).toString(16).toUpperCase()};`, `\\${c}`)));
    return out;
  }
}

/** A bare destination recorded as written with character references (style/spacing.ts), while its URL is unchanged. */
function withRaw(node: Link | Image | Definition, out: string): string {
  const data = node.data as { rawDestination?: string; rawDestinationOf?: string } | undefined;
  if (!data?.rawDestination || data.rawDestinationOf !== node.url || node.title || /[()[\]<>\s\\]/.test(node.url)) return out;
  const at = out.lastIndexOf('](');
  return at < 0 || !out.endsWith(')') ? out : `${out.slice(0, at)}](${data.rawDestination})`;
}

/**
 * The 2020 exporter's image captions: `~` and `{}` written plain (a lone `~` only: a pair could strike through),
 * every non-ASCII character as an uppercase hex reference (`&#xC624;`, `&#x200B;`).
 */
function altCaption(label: string, style: Style): string {
  let out = label;
  if (style.altPlain)
    out = out.replace(/(?<!\\)\\([~{}])/g, (m, c: string, at: number) =>
      style.altPlain.includes(c) && !(c === '~' && (out[at - 1] === '~' || out[at + 2] === '~' || out.startsWith('\\~', at + 2))) ? c : m,
    );
  if (style.altHex) out = out.replace(/[^\0-\x7f]/gu, (c) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`);
  return out;
}
