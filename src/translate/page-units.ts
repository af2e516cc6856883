/**
 * What of a page is translated, in document order ("units"): the title, the front matter's `description`, the inline
 * content of paragraphs, headings and table cells (wherever they are: list items, quotes, hint and tab bodies and
 * every other GitBook block's body), image alt text and figure captions. Never: code, inline code, math, URLs and
 * link destinations, GitBook tags and their attributes, HTML (other than the text of a `<figcaption>`), front-matter
 * keys and other values. Extraction and reassembly both walk a fresh parse of the same markdown, so they see the
 * same units in the same order.
 */
import type { Nodes, Parent, PhrasingContent } from 'mdast';
import type { PageFile } from '../format/index.js';
import { MarkupWriter, escapeText, readMarkup, unescapeText, type GlossaryTerm, type Placeholder } from './markup.js';

export interface Unit {
  /** `phrasing` (inline content with placeholders) or `plain` (a text without marks). */
  kind: 'phrasing' | 'plain';
  /** The markup sent to the engine (escaped text, placeholders). */
  markup: string;
  /** Glossary terms the unit contains (`source\0target`), sorted. */
  terms: string[];
  /** Puts a translated markup back; false when its placeholders do not match (the source is kept). */
  apply(markup: string): boolean;
}

const NEVER = new Set(['code', 'inlineCode', 'math', 'inlineMath', 'yaml', 'toml', 'liquidTag', 'definition', 'thematicBreak', 'break']);
const PHRASING_PARENTS = new Set(['paragraph', 'heading', 'tableCell']);
const FIGCAPTION = /(<figcaption>\s*(?:<p>)?)([\s\S]*?)((?:<\/p>)?\s*<\/figcaption>)/g;

function phrasingUnit(parent: Parent & { children: PhrasingContent[] }, terms: readonly GlossaryTerm[]): Unit {
  const writer = new MarkupWriter(terms);
  const markup = writer.phrasing(parent.children);
  const placeholders: ReadonlyMap<number, Placeholder> = writer.placeholders;
  return {
    kind: 'phrasing',
    markup,
    terms: [...writer.termsFound].sort(),
    apply(target) {
      const nodes = readMarkup(target, placeholders);
      if (!nodes) return false;
      parent.children = nodes;
      return true;
    },
  };
}

function plainUnit(text: string, terms: readonly GlossaryTerm[], set: (value: string) => void): Unit {
  const writer = new MarkupWriter(terms);
  const markup = writer.text(text);
  const placeholders: ReadonlyMap<number, Placeholder> = writer.placeholders;
  return {
    kind: 'plain',
    markup,
    terms: [...writer.termsFound].sort(),
    apply(target) {
      const nodes = readMarkup(target, placeholders);
      if (!nodes || nodes.some((n) => n.type !== 'text')) return false;
      set(nodes.map((n) => (n as { value: string }).value).join(''));
      return true;
    },
  };
}

/** The units of a parsed page, in order. Applying a unit changes `page` in place. */
export function pageUnits(page: PageFile, terms: readonly GlossaryTerm[]): Unit[] {
  const units: Unit[] = [];
  const title = page.title;
  if (title) units.push(plainUnit(title.text, terms, (v) => (title.text = v)));
  const fm = page.frontMatter;
  const description = fm?.valid ? fm.get('description') : undefined;
  if (fm && typeof description === 'string' && description.trim() !== '') units.push(plainUnit(description, terms, (v) => fm.set('description', v)));

  const images: Unit[] = [];
  const walkInline = (nodes: readonly PhrasingContent[]) => {
    for (const node of nodes) {
      if (node.type === 'image' && node.alt) images.push(plainUnit(node.alt, terms, (v) => (node.alt = v)));
      if ('children' in node) walkInline(node.children as PhrasingContent[]);
    }
  };
  const walk = (node: Nodes) => {
    if (NEVER.has(node.type)) return;
    if (node.type === 'html') {
      htmlUnits(node, terms, units);
      return;
    }
    if (PHRASING_PARENTS.has(node.type)) {
      const parent = node as Parent & { children: PhrasingContent[] };
      units.push(phrasingUnit(parent, terms));
      // Image alt texts follow their paragraph (placeholders keep the images themselves).
      images.length = 0;
      walkInline(parent.children);
      units.push(...images);
      return;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
  };
  walk(page.document);
  return units;
}

/** The text of each `<figcaption>` of an HTML block (when it holds no other tag than a paragraph). */
function htmlUnits(node: Nodes & { type: 'html'; value: string }, terms: readonly GlossaryTerm[], units: Unit[]): void {
  const captions = [...node.value.matchAll(FIGCAPTION)].filter((m) => !/[<>]/.test(m[2]!) && m[2]!.trim() !== '');
  for (const m of captions) {
    const index = m.index;
    const [whole, open, , close] = m as unknown as [string, string, string, string];
    const source = unescapeText(m[2]!);
    units.push(
      plainUnit(source, terms, (v) => {
        // Replace this caption only: found again at its place (earlier captions may have changed length).
        const at = node.value.indexOf(whole, Math.max(0, index - 0));
        const pos = at >= 0 ? at : node.value.indexOf(whole);
        if (pos < 0) return;
        node.value = node.value.slice(0, pos) + open + escapeText(v) + close + node.value.slice(pos + whole.length);
      }),
    );
  }
}
