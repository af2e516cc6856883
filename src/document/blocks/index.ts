import type { BlockConverter, InlineConverter } from '../converter.js';
import { imagesBlock } from './images.js';
import { paragraphBlock } from './paragraph.js';
import { headingBlock } from './heading.js';
import { dividerBlock } from './divider.js';
import { blockquoteBlock } from './blockquote.js';
import { listBlock } from './list.js';
import { codeBlock } from './code.js';
import { mathBlock } from './math.js';
import { tableBlock } from './table.js';
import { hintBlock } from './hint.js';
import { tabsBlock } from './tabs.js';
import { stepperBlock } from './stepper.js';
import { columnsBlock } from './columns.js';
import { embedBlock } from './embed.js';
import { fileBlock } from './file.js';
import { contentRefBlock } from './content-ref.js';
import { openapiBlock } from './openapi.js';
import { ifBlock } from './if.js';
import { linkInline } from '../inline/link.js';
import { mathInline } from '../inline/math.js';
import { imageInline } from '../inline/image.js';

/** Every block with a document form, tried in order (an image alone in a paragraph is an `images` block). */
export const blockConverters: BlockConverter[] = [
  imagesBlock,
  paragraphBlock,
  headingBlock,
  dividerBlock,
  blockquoteBlock,
  listBlock,
  codeBlock,
  mathBlock,
  tableBlock,
  hintBlock,
  tabsBlock,
  stepperBlock,
  columnsBlock,
  embedBlock,
  fileBlock,
  contentRefBlock,
  openapiBlock,
  ifBlock,
];

export const inlineConverters: InlineConverter[] = [linkInline, mathInline, imageInline];
