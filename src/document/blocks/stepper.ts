import type { BlockConverter } from '../converter.js';
import { containerFromDocument, containerToDocument, type ItemMapping } from './container.js';

const stepper: ItemMapping = {
  tag: 'stepper',
  itemTag: 'step',
  type: 'stepper',
  itemType: 'stepper-step',
  order: [],
  toData: () => ({}),
  fromData: () => ({}),
};

/** Steppers: `{% stepper %}` / `{% step %}` ⇄ `stepper` of `stepper-step`. */
export const stepperBlock: BlockConverter = {
  name: 'stepper',
  types: ['stepper'],
  toDocument: (node, ctx) => containerToDocument(node, ctx, stepper),
  fromDocument: (block, ctx, path) => containerFromDocument(block, ctx, path, stepper),
};
