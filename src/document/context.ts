import type { PhrasingContent, RootContent } from 'mdast';
import { nodesEqual } from '../format/index.js';
import { allowedIn } from './nesting.js';
import { documentText, markdownText, withoutPositions } from './plain-text.js';
import { leavesToPhrasing, MARK_OF_NODE } from './inline/leaves.js';
import { DocumentInvalidError } from './errors.js';
import { refToUrl } from './refs.js';
import type { BlockConverter, FromDocumentContext, InlineConverter, ToDocumentContext } from './converter.js';
import { NoDocumentForm } from './converter.js';
import type { DocumentBlock, DocumentInline, DocumentLeaf, DocumentMark, DocumentText, SourceHint } from './types.js';

export interface Converters {
  blocks: BlockConverter[];
  inlines: InlineConverter[];
}

/** Statistics of one conversion: how many nodes had no document form and were kept whole. */
export interface ConversionStats {
  blocks: number;
  keptBlocks: Record<string, number>;
  keptInlines: Record<string, number>;
}

const hasKeys = (o: unknown) => !!o && typeof o === 'object' && Object.keys(o).length > 0;

/**
 * Markdown → document. Every block is converted by its converter, then read back and compared with the
 * markdown node: a node whose document form would not give the same markdown (or that the schema does not
 * allow where it stands) is kept whole under its key, shown as a paragraph of its text.
 */
export class ToDocument implements ToDocumentContext {
  readonly hints: Record<string, SourceHint> = {};
  readonly stats: ConversionStats = { blocks: 0, keptBlocks: {}, keptInlines: {} };
  private next = 1;
  private readonly back: FromDocument;

  constructor(private readonly converters: Converters) {
    this.back = new FromDocument(converters, this.hints);
  }

  hint(element: { key?: string }, hint: SourceHint): void {
    const h = Object.fromEntries(Object.entries(hint).filter(([, v]) => v !== undefined && !(typeof v === 'object' && v !== null && !hasKeys(v))));
    if (!hasKeys(h)) return;
    element.key ??= `n${this.next++}`;
    this.hints[element.key] = { ...this.hints[element.key], ...withoutPositions(h) };
  }

  private rollback(mark: number): void {
    for (let i = mark; i < this.next; i++) delete this.hints[`n${i}`];
    this.next = mark;
  }

  blocks(nodes: RootContent[], parent: string): DocumentBlock[] {
    return nodes.map((node) => this.block(node, parent));
  }

  block(node: RootContent, parent: string): DocumentBlock {
    this.stats.blocks++;
    const mark = this.next;
    let element: DocumentBlock | null = null;
    try {
      for (const c of this.converters.blocks) {
        element = c.toDocument(node, this);
        if (element) break;
      }
    } catch (err) {
      if (!(err instanceof NoDocumentForm)) throw err;
      element = null;
    }
    if (element && allowedIn(parent, element.type)) {
      element.isVoid ??= false;
      this.hint(element, { data: node.data as Record<string, unknown> | undefined });
      let back: RootContent | undefined;
      try {
        back = this.back.block(element, '');
      } catch (err) {
        if (!(err instanceof NoDocumentForm) && !(err instanceof DocumentInvalidError)) throw err;
      }
      if (back && nodesEqual(back, node)) return element;
    }
    this.rollback(mark);
    const kind = node.type === 'liquidBlock' ? `liquid:${node.name}` : node.type;
    this.stats.keptBlocks[kind] = (this.stats.keptBlocks[kind] ?? 0) + 1;
    const text = markdownText(node);
    const kept: DocumentBlock = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] };
    this.hint(kept, { node, text });
    return kept;
  }

  phrasing(nodes: PhrasingContent[]): Array<DocumentText | DocumentInline> {
    const out: Array<DocumentText | DocumentInline> = [];
    for (const node of nodes) {
      const mark = this.next;
      let pieces: Array<DocumentText | DocumentInline> | null = null;
      try {
        pieces = this.inline(node, []);
      } catch (err) {
        if (!(err instanceof NoDocumentForm)) throw err;
      }
      if (pieces) {
        let back: PhrasingContent[] | undefined;
        try {
          back = this.back.phrasing(pieces, '');
        } catch (err) {
          if (!(err instanceof NoDocumentForm) && !(err instanceof DocumentInvalidError)) throw err;
        }
        if (back && nodesEqual(back, [node])) {
          out.push(...pieces);
          continue;
        }
      }
      this.rollback(mark);
      this.stats.keptInlines[node.type] = (this.stats.keptInlines[node.type] ?? 0) + 1;
      const text = markdownText(node);
      const kept: DocumentText = { object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] };
      this.hint(kept, { node, text });
      out.push(kept);
    }
    // One text object between inlines, as GitBook's documents have it, when that reads back the same.
    const merged = mergeTexts(out);
    if (merged.length === out.length) return out;
    try {
      if (nodesEqual(this.back.phrasing(merged, ''), nodes)) return merged;
    } catch (err) {
      if (!(err instanceof NoDocumentForm) && !(err instanceof DocumentInvalidError)) throw err;
    }
    return out;
  }

  inline(node: PhrasingContent, marks: DocumentMark[]): Array<DocumentText | DocumentInline> {
    for (const c of this.converters.inlines) {
      const inline = c.toDocument(node, marks, this);
      if (inline) {
        this.hint(inline, { data: node.data as Record<string, unknown> | undefined });
        return [inline];
      }
    }
    if (hasKeys(node.data)) throw new NoDocumentForm();
    const leaf = (text: string, m: DocumentMark[]): DocumentText => ({ object: 'text', leaves: [{ object: 'leaf', text, marks: m }] });
    switch (node.type) {
      case 'text':
        return [leaf(node.value, marks)];
      case 'inlineCode':
        return [leaf(node.value, [...marks, { object: 'mark', type: 'code' }])];
      case 'break':
        return [leaf('\n', marks)];
      case 'strong':
      case 'emphasis':
      case 'delete': {
        const inner = [...marks, { object: 'mark', type: MARK_OF_NODE[node.type] } as DocumentMark];
        if (node.children.length === 0) throw new NoDocumentForm();
        return mergeTexts(node.children.flatMap((c) => this.inline(c, inner)));
      }
    }
    throw new NoDocumentForm();
  }
}

/** Consecutive text objects without keys become one (their leaves in order). */
function mergeTexts(pieces: Array<DocumentText | DocumentInline>): Array<DocumentText | DocumentInline> {
  const out: Array<DocumentText | DocumentInline> = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if (p.object === 'text' && last?.object === 'text' && !p.key && !last.key) out[out.length - 1] = { ...last, leaves: [...last.leaves, ...p.leaves] };
    else out.push(p);
  }
  return out;
}

/** Document → markdown nodes, with the hints a document Folio made carries (an edited element loses its kept node). */
export class FromDocument implements FromDocumentContext {
  private readonly blockTypes = new Map<string, BlockConverter>();
  private readonly inlineTypes = new Map<string, InlineConverter>();

  constructor(
    converters: Converters,
    private readonly hints: Record<string, SourceHint>,
    private readonly resolve: (ref: Record<string, unknown>, path: string) => string | undefined = () => undefined,
  ) {
    for (const c of converters.blocks) for (const t of c.types) this.blockTypes.set(t, c);
    for (const c of converters.inlines) for (const t of c.types) this.inlineTypes.set(t, c);
  }

  hint(element: { key?: string }): SourceHint | undefined {
    return typeof element.key === 'string' && Object.hasOwn(this.hints, element.key) ? this.hints[element.key] : undefined;
  }

  /** The kept markdown node of an element whose visible text the client did not change. */
  private kept(element: { key?: string }): unknown {
    const h = this.hint(element);
    if (h?.node === undefined || documentText(element) !== h.text) return undefined;
    return structuredClone(h.node);
  }

  blocks(nodes: unknown[] | undefined, path: string): RootContent[] {
    if (nodes === undefined) return [];
    if (!Array.isArray(nodes)) throw new DocumentInvalidError('nodes must be an array', path);
    return nodes.map((n, i) => this.block(n, `${path}/nodes/${i}`));
  }

  block(node: unknown, path: string): RootContent {
    const element = expectObject(node, path) as unknown as DocumentBlock;
    if (element.object !== 'block') throw new DocumentInvalidError(`expected a block, got ${JSON.stringify(element.object)}`, path);
    const kept = this.kept(element);
    if (kept !== undefined) return kept as RootContent;
    const converter = this.blockTypes.get(element.type);
    if (!converter) throw new DocumentInvalidError(`block type ${JSON.stringify(element.type)} has no markdown form in Folio`, path);
    const out = converter.fromDocument(element, this, path);
    const data = this.hint(element)?.data;
    if (data) out.data = structuredClone(data);
    return out;
  }

  phrasing(nodes: unknown[] | undefined, path: string): PhrasingContent[] {
    if (nodes === undefined) return [];
    if (!Array.isArray(nodes)) throw new DocumentInvalidError('nodes must be an array', path);
    const out: PhrasingContent[] = [];
    nodes.forEach((n, i) => {
      const at = `${path}/nodes/${i}`;
      const element = expectObject(n, at) as unknown as DocumentText | DocumentInline;
      const kept = this.kept(element);
      if (kept !== undefined) out.push(kept as PhrasingContent);
      else if (element.object === 'text') {
        if (!Array.isArray(element.leaves)) throw new DocumentInvalidError('a text has leaves', at);
        out.push(...leavesToPhrasing(element.leaves.map((l, j) => checkLeaf(l, `${at}/leaves/${j}`))));
      } else if (element.object === 'inline') {
        const converter = this.inlineTypes.get(element.type);
        if (!converter) throw new DocumentInvalidError(`inline type ${JSON.stringify(element.type)} has no markdown form in Folio`, at);
        const inline = converter.fromDocument(element, this, at);
        const data = this.hint(element)?.data;
        if (data) inline.data = structuredClone(data);
        out.push(inline);
      } else throw new DocumentInvalidError(`expected a text or an inline, got ${JSON.stringify((element as { object?: unknown }).object)}`, at);
    });
    return out;
  }

  refToUrl(ref: unknown, path: string): string {
    return refToUrl(expectObject(ref, path), path, this.resolve);
  }
}

function expectObject(value: unknown, path: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new DocumentInvalidError('expected an object', path);
  return value as Record<string, unknown>;
}

function checkLeaf(leaf: unknown, path: string): DocumentLeaf {
  const l = expectObject(leaf, path);
  if (typeof l.text !== 'string') throw new DocumentInvalidError('a leaf has a text string', path);
  if (l.marks !== undefined && !Array.isArray(l.marks)) throw new DocumentInvalidError('marks must be an array', path);
  return { object: 'leaf', text: l.text, marks: (l.marks as DocumentMark[] | undefined) ?? [] };
}
