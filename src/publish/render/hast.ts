import type { Element, ElementContent, Properties, Text } from 'hast';

/** A hast element (a tiny `h`, without hastscript's parsing of selectors). */
export function el(tagName: string, properties: Properties = {}, children: ElementContent[] = []): Element {
  return { type: 'element', tagName, properties, children };
}

export function text(value: string): Text {
  return { type: 'text', value };
}

/** The value of a Liquid attribute by name (`undefined` when absent). */
export function attr(node: { attributes: Array<{ name: string | null; value: string }> }, name: string): string | undefined {
  return node.attributes.find((a) => a.name === name)?.value;
}

/** The first positional attribute (`{% embed "url" %}`). */
export function positional(node: { attributes: Array<{ name: string | null; value: string }> }): string | undefined {
  return node.attributes.find((a) => a.name === null)?.value;
}
