import type { BlockConverter } from '../converter.js';
import { NoDocumentForm } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import { voidFromDocument, voidToDocument } from './void-tags.js';

/**
 * API reference blocks: `{% openapi-operation spec="…" path="…" method="…" %}` ⇄ `openapi-operation`
 * (`ref` of kind openapi), and `{% swagger src="…" path="…" method="…" %}` / `{% openapi src=… %}` ⇄
 * `swagger` (`ref` of the spec file or URL). Their summary lines are kept with the block.
 */
export const openapiBlock: BlockConverter = {
  name: 'openapi',
  types: ['openapi-operation', 'swagger'],
  toDocument(node, ctx) {
    const operation = voidToDocument(node, ctx, 'openapi-operation', ['spec', 'path', 'method'], (v) =>
      v.spec === undefined || v.path === undefined || v.method === undefined
        ? null
        : { type: 'openapi-operation', data: { ref: { kind: 'openapi', spec: v.spec }, path: v.path, method: v.method } },
    );
    if (operation) return operation;
    for (const tag of ['swagger', 'openapi']) {
      const block = voidToDocument(node, ctx, tag, ['src', 'path', 'method'], (v) =>
        v.src === undefined || v.path === undefined || v.method === undefined
          ? null
          : { type: 'swagger', data: { ref: { kind: 'url', url: v.src }, path: v.path, method: v.method } },
      );
      if (block) {
        if (node.type === 'liquidBlock' && node.children.length === 0) throw new NoDocumentForm();
        ctx.hint(block, { attrs: { tag } });
        return block;
      }
    }
    return null;
  },
  fromDocument(block, ctx, path) {
    const { ref, path: opPath, method } = (block.data ?? {}) as { ref?: { kind?: unknown; spec?: unknown }; path?: unknown; method?: unknown };
    if (typeof opPath !== 'string' || typeof method !== 'string') throw new DocumentInvalidError(`${block.type} has a path and a method`, `${path}/data`);
    if (block.type === 'openapi-operation') {
      if (ref?.kind !== 'openapi' || typeof ref.spec !== 'string')
        throw new DocumentInvalidError('openapi-operation has a ref of kind openapi', `${path}/data/ref`);
      return voidFromDocument(block, ctx, 'openapi-operation', ['spec', 'path', 'method'], { spec: ref.spec, path: opPath, method }, false);
    }
    const tag = ctx.hint(block)?.attrs?.tag === 'swagger' ? 'swagger' : 'openapi';
    return voidFromDocument(block, ctx, tag, ['src', 'path', 'method'], { src: ctx.refToUrl(ref, `${path}/data/ref`), path: opPath, method }, false);
  },
};
