import type { BlockContent, DefinitionContent } from 'mdast';

/** A GitBook `{% name attr="…" %}` … `{% endname %}` block, as Folio's markdown model writes it. */
export function liquidBlock(name: string, attributes: Record<string, string>, children: (BlockContent | DefinitionContent)[]) {
  return {
    type: 'liquidBlock' as const,
    name,
    attributes: Object.entries(attributes).map(([key, value]) => ({ name: key, value, quote: '"' as const })),
    selfClosing: false,
    children,
  };
}
