import type { Root } from 'mdast';

/** Tree transforms run after Liquid pairing, one per construct needing source-level detection. */
export const blockTransforms: Array<(tree: Root, text: string) => void> = [];
