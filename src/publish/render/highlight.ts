/**
 * Build-time syntax highlighting with starry-night (GitHub's TextMate grammars, `common` set): token spans with
 * `pl-*` classes, coloured by the site stylesheet (no inline style, no script). A thread loads the regular-expression
 * engine (WASM) once (`loadHighlighter`, before the first render) and each grammar the first time a page names its
 * language (`renderPageWithGrammars`, with the grammars it includes): a thread that renders SQL and plain text never
 * holds the 33 other grammars (~45 MB of heap each). Until the engine is loaded, or for an unknown language, code
 * stays plain. A block over `MAX_HIGHLIGHT_CHARS`, or over the page's `MAX_HIGHLIGHT_CHARS_PER_PAGE`, is rendered
 * plain: a huge block never stalls a render. A thread keeps what it highlighted (`highlighted`): a block met again is
 * not highlighted again.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { COMMON_GRAMMARS } from './grammar-index.js';
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
/** Scopes whose grammar this thread registered. */
const loadedScopes = new Set<string>();
/** Grammar loads of this thread, one after the other (each rebuilds starry-night's registry). */
let grammarQueue: Promise<void> = Promise.resolve();

/** Loads the regular-expression engine (WASM) once per thread, without grammars (`loadGrammars` adds them). */
export function loadEngine(): Promise<void> {
  loading ??= (async () => {
    // starry-night's own module, not the package's entry point: that one imports every grammar of `all` (~600 of
    // them, ~50 MB of heap in each thread) to export them.
    const entry = createRequire(import.meta.url).resolve('@wooorm/starry-night');
    const engine = pathToFileURL(path.join(path.dirname(entry), 'lib', 'index.js')).href;
    const { createStarryNight } = (await import(engine)) as Pick<typeof import('@wooorm/starry-night'), 'createStarryNight'>;
    starry = await createStarryNight([]);
  })();
  return loading;
}

/** Loads the engine and every grammar of the set (callers that render synchronously, without `renderPageWithGrammars`). */
export async function loadHighlighter(): Promise<void> {
  await loadEngine();
  await loadGrammars(COMMON_GRAMMARS.map((g) => g.scope));
}

/** The scopes whose grammar this thread loaded (tests, diagnostics). */
export function loadedGrammarScopes(): string[] {
  return [...loadedScopes].sort();
}

/** Flag → scope, as starry-night's `flagToScope` answers with the whole set registered (a later grammar wins). */
const byName = new Map<string, string>();
const byExtension = new Map<string, string>();
const byExtensionWithDot = new Map<string, string>();
const includesOf = new Map<string, string[]>();
for (const g of COMMON_GRAMMARS) {
  for (const e of g.extensions) byExtension.set(e, g.scope);
  for (const e of g.extensionsWithDot ?? []) byExtensionWithDot.set(e, g.scope);
  for (const n of g.names) byName.set(n, g.scope);
  includesOf.set(g.scope, g.includes);
}

/** The scope of a fence's info word (`js`, `bash`, `.py`), or undefined: starry-night's `flagToScope` over `common`. */
export function scopeOfFlag(flag: string): string | undefined {
  const normal = flag
    .replace(/^[\t ]+/, '')
    .replace(/[\t /]+$/, '')
    .toLowerCase();
  const named = byName.get(normal);
  if (named) return named;
  const dot = normal.lastIndexOf('.');
  if (dot === -1) return byExtension.get(`.${normal}`);
  const extension = normal.slice(dot);
  return byExtension.get(extension) ?? byExtensionWithDot.get(extension);
}

/** `scopes` with every grammar they include, transitively, less those loaded already. */
export function grammarsToLoad(scopes: Iterable<string>): string[] {
  const out = new Set<string>();
  const visit = (scope: string) => {
    if (out.has(scope) || !includesOf.has(scope)) return;
    out.add(scope);
    for (const s of includesOf.get(scope)!) visit(s);
  };
  for (const s of scopes) visit(s);
  return [...out].filter((s) => !loadedScopes.has(s));
}

/** Registers the grammars of `scopes` (and of what they include) not loaded yet; the engine must be loaded. */
export function loadGrammars(scopes: Iterable<string>): Promise<void> {
  const wanted = [...scopes];
  grammarQueue = grammarQueue.then(async () => {
    const missing = grammarsToLoad(wanted);
    if (missing.length === 0 || !starry) return;
    type Grammar = Parameters<StarryNight['register']>[0][number];
    const grammars = await Promise.all(missing.map(async (scope) => ((await import(`@wooorm/starry-night/${scope}`)) as { default: Grammar }).default));
    await starry.register(grammars);
    for (const s of missing) loadedScopes.add(s);
  });
  return grammarQueue;
}

/** Fence info words of a markdown text (a superset: every word after three backticks or tildes). */
const FENCE_FLAG = /(?:`{3,}|~{3,})[ \t]*([^\s`{]+)/g;

/** The scopes the fences of `texts` may name: what a page's render will ask for, loaded before it. */
export function scopesNamedIn(texts: Iterable<string>): Set<string> {
  const scopes = new Set<string>();
  for (const t of texts)
    for (const m of t.matchAll(FENCE_FLAG)) {
      const scope = scopeOfFlag(m[1]!);
      if (scope) scopes.add(scope);
    }
  return scopes;
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
  firstWait ??= Promise.race([loadEngine().catch(() => {}), new Promise<void>((resolve) => setTimeout(resolve, FIRST_WAIT_MS).unref())]);
  return firstWait;
}

/**
 * Per page: how many characters were highlighted so far; whether a block was left plain for want of the highlighter;
 * the scopes a block named whose grammar this thread has not loaded (the page is rendered again once they are).
 */
export class HighlightBudget {
  used = 0;
  missed = false;
  readonly needs = new Set<string>();
}

/**
 * The highlighted lines of `value` in language `lang` (a fence's info word: `js`, `bash`, `python`, …), or null
 * when it stays plain (unknown language, highlighter not loaded, block or page over its cap).
 */
export function highlightLines(value: string, lang: string | null | undefined, budget: HighlightBudget): ElementContent[][] | null {
  if (!starry && lang) budget.missed = true;
  if (!starry || !lang || value.length > MAX_HIGHLIGHT_CHARS || budget.used + value.length > MAX_HIGHLIGHT_CHARS_PER_PAGE) return null;
  const scope = scopeOfFlag(lang);
  if (!scope) return null;
  if (!loadedScopes.has(scope)) {
    budget.needs.add(scope);
    return null;
  }
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
