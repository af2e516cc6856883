import type { BlockConverter } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import { voidFromDocument, voidToDocument } from './void-tags.js';

/**
 * File downloads: `{% file src="…" %}` ⇄ `file` whose `ref` is a `ContentRefFile` naming the file by the path
 * the page writes (relative to the page); a caption body is kept with the block.
 */
export const fileBlock: BlockConverter = {
  name: 'file',
  types: ['file'],
  toDocument: (node, ctx) =>
    voidToDocument(node, ctx, 'file', ['src'], (v) => (v.src === undefined ? null : { type: 'file', data: { ref: { kind: 'file', file: v.src } } })),
  fromDocument(block, ctx, path) {
    const ref = block.data?.ref as { kind?: unknown; file?: unknown } | undefined;
    if (ref?.kind !== 'file' || typeof ref.file !== 'string') throw new DocumentInvalidError('file has a ref of kind file', `${path}/data/ref`);
    return voidFromDocument(block, ctx, 'file', ['src'], { src: ctx.refToUrl(ref, `${path}/data/ref`) }, true);
  },
};
