/**
 * Build-time syntax highlighting with starry-night (GitHub's TextMate grammars, `common` set): token spans with
 * `pl-*` classes, coloured by the site stylesheet (no inline style, no script). Loaded once per parse-pool thread
 * (`loadHighlighter`, before the first render); until then, or for an unknown language, code stays plain. A block
 * over `MAX_HIGHLIGHT_CHARS`, or over the page's `MAX_HIGHLIGHT_CHARS_PER_PAGE`, is rendered plain: a huge block
 * never stalls a render. A thread keeps what it highlighted (`highlighted`): a block met again is not highlighted again.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { el, text } from './hast.js';

type StarryNight = Awaited<ReturnType<(typeof import('@wooorm/starry-night'))['createStarryNight']>>;

/** Longest code block highlighted (characters); longer ones are plain. */
export const MAX_HIGHLIGHT_CHARS = 20_000;
/** Characters of code highlighted per page, over all its blocks. */
export const MAX_HIGHLIGHT_CHARS_PER_PAGE = 100_000;
/** Longest line highlighted (minified code): a block with a longer one is plain. */
const MAX_LINE_CHARS = 2_000;

let starry: StarryNight | null = null;
let loading: Promise<void> | null = null;

/** Loads the grammars and the regular-expression engine (WASM) once per thread. */
export function loadHighlighter(): Promise<void> {
  loading ??= (async () => {
    const { createStarryNight, common } = await import('@wooorm/starry-night');
    starry = await createStarryNight(common);
  })();
  return loading;
}

/** The lines of a token tree: text split at line endings, each piece inside a copy of its enclosing spans. */
function splitLines(tree: Root): ElementContent[][] {
  const lines: ElementContent[][] = [[]];
  const walk = (nodes: RootContent[], wrap: (c: ElementContent) => ElementContent) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        node.value.split('\n').forEach((piece, i) => {
          if (i > 0) lines.push([]);
          if (piece !== '') lines[lines.length - 1]!.push(wrap(text(piece)));
        });
      } else if (node.type === 'element') {
        const e: Element = node;
        walk(e.children, (c) => wrap(el(e.tagName, { ...e.properties }, [c])));
      }
    }
  };
  walk(tree.children, (c) => c);
  return lines;
}

/** How long the first render of a thread waits for the highlighter (it keeps loading after; see `waitForHighlighter`). */
const FIRST_WAIT_MS = 4_000;
let firstWait: Promise<void> | null = null;

/**
 * Waits for the highlighter to load, at most `FIRST_WAIT_MS` once per thread: a thread under heavy load renders plain
 * (and says so, `plainCode`) rather than spend its task's time budget on loading grammars.
 */
export function waitForHighlighter(): Promise<void> {
  firstWait ??= Promise.race([loadHighlighter().catch(() => {}), new Promise<void>((resolve) => setTimeout(resolve, FIRST_WAIT_MS).unref())]);
  return firstWait;
}

/** Per page: how many characters were highlighted so far; whether a block was left plain for want of the highlighter. */
export class HighlightBudget {
  used = 0;
  missed = false;
}

/**
 * The highlighted lines of `value` in language `lang` (a fence's info word: `js`, `bash`, `python`, …), or null
 * when it stays plain (unknown language, highlighter not loaded, block or page over its cap).
 */
export function highlightLines(value: string, lang: string | null | undefined, budget: HighlightBudget): ElementContent[][] | null {
  if (!starry && lang) budget.missed = true;
  if (!starry || !lang || value.length > MAX_HIGHLIGHT_CHARS || budget.used + value.length > MAX_HIGHLIGHT_CHARS_PER_PAGE) return null;
  const scope = starry.flagToScope(lang);
  if (!scope) return null;
  if (value.split('\n').some((line) => line.length > MAX_LINE_CHARS)) return null;
  budget.used += value.length;
  const key = `${scope}\0${value}`;
  const known = highlighted.get(key);
  if (known !== undefined) {
    highlightCounts.reused++;
    // Most recently used last: the oldest entries go first when the cache is full.
    highlighted.delete(key);
    highlighted.set(key, known);
    return JSON.parse(known) as ElementContent[][];
  }
  const lines = splitLines(starry.highlight(value, scope));
  highlightCounts.highlighted++;
  remember(key, JSON.stringify(lines));
  return lines;
}

/**
 * Highlighted blocks of this thread by language scope and code, as JSON (parsed into fresh nodes on each use): the
 * same block on another page, or in the next publish of the site, is not highlighted again. At most
 * `HIGHLIGHT_CACHE_CHARS` characters of keys and values, the least recently used going first.
 */
const highlighted = new Map<string, string>();
/** Blocks this thread highlighted, and blocks it took from `highlighted`. */
export const highlightCounts = { highlighted: 0, reused: 0 };
const HIGHLIGHT_CACHE_CHARS = 8_000_000;
let cachedChars = 0;

function remember(key: string, json: string): void {
  if (key.length + json.length > HIGHLIGHT_CACHE_CHARS / 8) return;
  highlighted.set(key, json);
  cachedChars += key.length + json.length;
  for (const [k, v] of highlighted) {
    if (cachedChars <= HIGHLIGHT_CACHE_CHARS) break;
    highlighted.delete(k);
    cachedChars -= k.length + v.length;
  }
}
