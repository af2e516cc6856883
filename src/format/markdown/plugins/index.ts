import type { GitbookConstructPlugin } from '../liquid/registry.js';
import { LiquidRegistry } from '../liquid/registry.js';
import { hintPlugin } from './hint.js';
import { tabsPlugin } from './tabs.js';
import { codePlugin } from './code.js';
import { embedPlugin } from './embed.js';
import { filePlugin } from './file.js';
import { contentRefPlugin } from './content-ref.js';
import { pageRefPlugin } from './page-ref.js';
import { openapiPlugin } from './openapi.js';
import { stepperPlugin } from './stepper.js';
import { columnsPlugin } from './columns.js';
import { updatesPlugin } from './updates.js';
import { includePlugin } from './include.js';
import { promptPlugin } from './prompt.js';
import { ifPlugin } from './if.js';
import { integrationBlockPlugin } from './integration-block.js';

/** Every Liquid-based GitBook construct Folio understands. */
export const liquidPlugins: GitbookConstructPlugin[] = [
  hintPlugin,
  tabsPlugin,
  codePlugin,
  embedPlugin,
  filePlugin,
  contentRefPlugin,
  pageRefPlugin,
  openapiPlugin,
  stepperPlugin,
  columnsPlugin,
  updatesPlugin,
  includePlugin,
  promptPlugin,
  ifPlugin,
  integrationBlockPlugin,
];

export function defaultRegistry(): LiquidRegistry {
  const r = new LiquidRegistry();
  for (const p of liquidPlugins) r.add(p);
  r.integrationBlocks = true;
  return r;
}
