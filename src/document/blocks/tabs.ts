import type { BlockConverter } from '../converter.js';
import { containerFromDocument, containerToDocument, type ItemMapping } from './container.js';

const tabs: ItemMapping = {
  tag: 'tabs',
  itemTag: 'tab',
  type: 'tabs',
  itemType: 'tabs-item',
  order: ['title', 'icon'],
  toData: (v) => ({ ...(v.title !== undefined ? { title: v.title } : {}), ...(v.icon !== undefined ? { icon: v.icon } : {}) }),
  fromData: (d) => ({ title: typeof d.title === 'string' ? d.title : undefined, icon: typeof d.icon === 'string' ? d.icon : undefined }),
};

/** Tabs: `{% tabs %}` / `{% tab title="…" icon="…" %}` ⇄ `tabs` of `tabs-item` (`title`, `icon`). */
export const tabsBlock: BlockConverter = {
  name: 'tabs',
  types: ['tabs'],
  toDocument: (node, ctx) => containerToDocument(node, ctx, tabs),
  fromDocument: (block, ctx, path) => containerFromDocument(block, ctx, path, tabs),
};
