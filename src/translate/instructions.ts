/** The plain text of a GitBook JSON document (a translation's instructions): one line per block. */
export function documentText(document: unknown): string {
  const lines: string[] = [];
  const inline = (node: unknown): string => {
    if (!node || typeof node !== 'object') return '';
    const n = node as { object?: string; leaves?: Array<{ text?: string }>; nodes?: unknown[] };
    if (n.object === 'text') return (n.leaves ?? []).map((l) => l.text ?? '').join('');
    return (n.nodes ?? []).map(inline).join('');
  };
  const block = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { object?: string; nodes?: unknown[] };
    const children = n.nodes ?? [];
    if (children.some((c) => (c as { object?: string })?.object === 'block')) children.forEach(block);
    else {
      const text = inline(node).trim();
      if (text) lines.push(text);
    }
  };
  for (const n of (document as { nodes?: unknown[] } | null)?.nodes ?? []) block(n);
  return lines.join('\n').slice(0, 10_000);
}
