import type { LiquidAttribute } from '../types.js';

export interface ParsedLiquidTag {
  name: string;
  closing: boolean;
  attributes: LiquidAttribute[];
  /** Whitespace after `{%` and before `%}`. */
  spacing: [string, string];
}

const TAG = /^\{%([ \t]*)([\s\S]*?)([ \t]*)%\}$/;

/** Parse the text of one tag (`{% name a="1" b='2' c=3 "pos" %}`); null when it is not a tag. */
export function parseLiquidTag(text: string): ParsedLiquidTag | null {
  const m = TAG.exec(text);
  if (!m) return null;
  const body = m[2]!;
  const nameMatch = /^([^\s]+)/.exec(body);
  if (!nameMatch) return null;
  let name = nameMatch[1]!;
  const closing = /^end[a-z]/.test(name) && !name.startsWith('@');
  if (closing) name = name.slice(3);
  const rest = body.slice(nameMatch[0].length);
  const attributes = parseAttributes(rest, name);
  if (attributes === null) return null;
  return { name, closing, attributes, spacing: [m[1]!, m[3]!] };
}

/** Tags whose argument is a raw expression, kept as one unquoted positional attribute. */
const EXPRESSION_TAGS = new Set(['if', 'elsif', 'elseif', 'unless']);

/**
 * Parse attributes keeping raw values and quote style. Returns null when the text cannot be
 * represented as a list of attributes separated by single spaces (so that formatting is lossless).
 */
export function parseAttributes(rest: string, name: string): LiquidAttribute[] | null {
  if (rest === '') return [];
  if (EXPRESSION_TAGS.has(name) || !/^ /.test(rest)) {
    return [{ name: null, value: rest.replace(/^ /, ''), quote: '' }];
  }
  const out: LiquidAttribute[] = [];
  let i = 0;
  while (i < rest.length) {
    if (rest[i] !== ' ') return fallback(rest);
    i++;
    const nm = /^([A-Za-z_@$][\w\-.:@$]*)=/.exec(rest.slice(i));
    let attrName: string | null = null;
    if (nm) {
      attrName = nm[1]!;
      i += nm[0].length;
    }
    const q = rest[i];
    if (q === '"' || q === "'") {
      let j = i + 1;
      while (j < rest.length && rest[j] !== q) j += rest[j] === '\\' ? 2 : 1;
      if (j >= rest.length) return fallback(rest);
      out.push({ name: attrName, value: rest.slice(i + 1, j), quote: q });
      i = j + 1;
    } else {
      const m = /^[^\s]*/.exec(rest.slice(i))!;
      if (m[0] === '' && attrName === null) return fallback(rest);
      out.push({ name: attrName, value: m[0], quote: '' });
      i += m[0].length;
    }
  }
  return out;
}

function fallback(rest: string): LiquidAttribute[] {
  return [{ name: null, value: rest.replace(/^ /, ''), quote: '' }];
}

export function formatAttribute(a: LiquidAttribute): string {
  const v = a.quote + a.value + a.quote;
  return a.name === null ? v : `${a.name}=${v}`;
}

export function formatLiquidTag(name: string, attributes: LiquidAttribute[], spacing: [string, string] = [' ', ' ']): string {
  const parts = [name, ...attributes.map(formatAttribute)];
  return `{%${spacing[0]}${parts.join(' ')}${spacing[1]}%}`;
}
