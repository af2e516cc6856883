import type { ElementContent, Root as HastRoot } from 'hast';
import type { Html, Root } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import rehypeStringify from 'rehype-stringify';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { toText } from 'hast-util-to-text';
import { parsePageFile } from '../../format/index.js';
import { columnBlock, columnsBlock } from './columns.js';
import { codeBlock, codeHandler } from './code.js';
import { contentRefBlock, pageRefBlock } from './cards.js';
import { LinkResolver, type RenderPageInput, type RenderedPage } from './context.js';
import { embedBlock } from './embed.js';
import { expandableBlock, groupExpandables } from './expandable.js';
import { containerBlock } from './fallback.js';
import { fileBlock } from './file.js';
import { identifyHeadings } from './headings.js';
import { hintBlock } from './hint.js';
import { imageHandler, linkHandler, referenceHandler } from './links.js';
import { mathHandlers, MathStyles } from './math.js';
import { replaceEmojiShortcodes } from './emoji.js';
import { includeBlock } from './include.js';
import { joinInlineHtml } from './inline-html.js';
import { openapiBlock } from './openapi.js';
import { sanitizeHtml } from './raw-html.js';
import { stepBlock, stepperBlock } from './stepper.js';
import { tabBlock, tabsBlock } from './tabs.js';
import type { BlockContext, BlockRenderer, LiquidBlock } from './types.js';
import { el, text } from './hast.js';
import { HighlightBudget, loadGrammars, scopesNamedIn } from './highlight.js';

export { loadHighlighter, waitForHighlighter } from './highlight.js';

export type { RenderPageInput, RenderedPage, RenderLink, RenderSpec, RenderWarning } from './context.js';

/** Bump when the output of the renderer changes: it is part of every output file's key. */
export const RENDERER_VERSION = 'folio-render-6';

const BLOCKS: BlockRenderer[] = [
  hintBlock,
  tabsBlock,
  tabBlock,
  codeBlock,
  expandableBlock,
  contentRefBlock,
  pageRefBlock,
  embedBlock,
  fileBlock,
  stepperBlock,
  stepBlock,
  columnsBlock,
  columnBlock,
  openapiBlock,
  containerBlock,
];
const BY_NAME = new Map(BLOCKS.flatMap((b) => b.names.map((n) => [n, b] as const)));

/** What every markdown tree (the page's, an included file's) goes through before it becomes hast. */
function prepare(tree: Root): void {
  groupExpandables(tree);
  joinInlineHtml(tree);
  replaceEmojiShortcodes(tree);
}

/**
 * One page's markdown → the HTML of its article: Folio's parser (the same as git import) → mdast →
 * `remark-rehype` with a handler for every GitBook block → `rehype-stringify`. Runs in a parse-pool thread.
 */
export function renderPageBody(input: RenderPageInput): RenderedPage {
  return renderWith(input, new HighlightBudget());
}

/**
 * `renderPageBody` in a thread that loads grammars as pages name them (`publish.render`): the grammars the page's
 * fences (its includes' too) may name are loaded first; a block whose language was not foreseen leaves the page to be
 * rendered again once its grammar is loaded, so the output is the one every grammar loaded would give.
 */
export async function renderPageWithGrammars(input: RenderPageInput): Promise<RenderedPage> {
  await loadGrammars(scopesNamedIn([input.markdown, ...Object.values(input.includes ?? {})]));
  const budget = new HighlightBudget();
  const page = renderWith(input, budget);
  if (budget.needs.size === 0) return page;
  await loadGrammars(budget.needs);
  return renderWith(input, new HighlightBudget());
}

function renderWith(input: RenderPageInput, highlight: HighlightBudget): RenderedPage {
  const links = new LinkResolver(input);
  // The tree only: a render needs no writing style (what an export writes back).
  const page = parsePageFile(input.markdown, { style: false });
  const mdast = page.document as Root;
  prepare(mdast);
  const include = includeBlock(input.includes ?? {}, prepare);
  const math = new MathStyles();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}-${++counter}`;
  const liquid = (state: State, node: LiquidBlock) => {
    const renderer = node.name === 'include' ? include : BY_NAME.get(node.name);
    const ctx: BlockContext = { state, links, nextId };
    if (!renderer) {
      links.warn('PUBLISH_UNSUPPORTED_BLOCK', `block not rendered: {% ${node.name} %}`);
      return el('div', { className: ['block'] }, state.all(node as never));
    }
    return renderer.render(node, ctx);
  };
  const handlers = {
    liquidBlock: liquid,
    liquidTag: () => undefined,
    code: codeHandler(highlight),
    ...mathHandlers(math, links),
    link: linkHandler(links),
    image: imageHandler(links),
    linkReference: referenceHandler,
    imageReference: referenceHandler,
    html: (_state: State, node: Html): ElementContent[] => sanitizeHtml(node.value, links, nextId),
    yaml: () => undefined,
  };
  const processor = unified()
    .use(remarkRehype, { handlers: handlers as never, allowDangerousHtml: false })
    .use(rehypeStringify);
  const hast = processor.runSync(mdast as never) as HastRoot;
  const headings = identifyHeadings(hast);
  const html = processor.stringify(hast as never);
  const summary = toText(hast).replace(/\s+/g, ' ').trim().slice(0, 300);
  void text;
  const mathCss = math.css();
  return {
    html: String(html),
    headings,
    summary,
    warnings: links.warnings,
    ...(highlight.missed ? { plainCode: true } : {}),
    ...(math.used ? { math: true } : {}),
    ...(mathCss !== null ? { mathCss } : {}),
  };
}
