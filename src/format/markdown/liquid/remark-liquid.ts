import type { Processor } from 'unified';
import { liquidSyntax } from './syntax.js';
import { liquidFromMarkdown } from './from-markdown.js';
import type { LiquidRegistry } from './registry.js';

/** unified plugin: recognise known `{% tag %}` lines as `liquidTag` nodes. */
export function remarkLiquid(this: Processor, options: { registry: LiquidRegistry }): void {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(liquidSyntax((name) => options.registry.isKnown(name)));
  (data.fromMarkdownExtensions ??= []).push(liquidFromMarkdown);
}
