import type { ExportContext } from './context.js';

const encoder = new TextEncoder();

/**
 * Phase ".gitbook.yaml": never rewritten. Written (the imported bytes) only into a tree that holds nothing of the space
 * yet, such as a new repository; a target that has the space's pages but no config had it removed on purpose.
 */
export function writeConfigFile(ctx: Pick<ExportContext, 'target' | 'revision' | 'changes'>): void {
  const { target } = ctx;
  const { config } = ctx.revision;
  if (config.configPath && config.configText !== undefined && !target.has(config.configPath) && !target.has(config.readme) && !target.has(config.summary)) {
    ctx.changes.set(config.configPath, encoder.encode(config.configText));
  }
}
