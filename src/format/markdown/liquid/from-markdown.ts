import type { Extension, CompileContext, Token } from 'mdast-util-from-markdown';
import type { LiquidTag } from '../types.js';
import { parseLiquidTag } from './tag.js';

/** Turns `liquidTag` tokens into `liquidTag` mdast nodes (paired into blocks later). */
export const liquidFromMarkdown: Extension = {
  enter: {
    liquidTag(this: CompileContext, token: Token) {
      const node: LiquidTag = { type: 'liquidTag', value: '', name: '', closing: false };
      this.enter(node as never, token);
    },
  },
  exit: {
    liquidTag(this: CompileContext, token: Token) {
      const node = this.stack[this.stack.length - 1] as unknown as LiquidTag;
      const value = this.sliceSerialize(token).replace(/[ \t]+$/, '');
      const tag = parseLiquidTag(value);
      node.value = value;
      node.name = tag?.name ?? '';
      node.closing = tag?.closing ?? false;
      this.exit(token);
    },
  },
};
