/**
 * A page's segments and their reassembly: the two operations a run performs on page markdown, in the parse pool
 * (untrusted markdown, with its time and memory budget). Pure functions of structured-cloneable values.
 */
import { createHash } from 'node:crypto';
import { parsePageFile, serializePageFile } from '../format/index.js';
import { plainText, type GlossaryTerm } from './markup.js';
import { pageUnits } from './page-units.js';
import { countWords } from './words.js';

export interface Segment {
  /** What the engine translates: the unit's markup without its leading and trailing white space. */
  markup: string;
  /** sha256 of `markup` (the memory's key, with the language pair and `glossaryVersion`). */
  hash: string;
  /** Fingerprint of the glossary terms the segment contains ('' when none). */
  glossaryVersion: string;
  words: number;
  /** False for a segment with no letter in it (numbers, punctuation, only placeholders): kept as it is. */
  translatable: boolean;
}

export interface PageSegments {
  segments: Segment[];
}

export interface AssembledPage {
  markdown: string;
  /** The translated title (`# …`) and front-matter description, when the page has them. */
  title?: string;
  description?: string;
  /** Segments whose translation lost or broke a placeholder: their source text is kept. */
  kept: number;
}

const LEAD = /^\s*/;
const TRAIL = /\s*$/;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function split(markup: string): { lead: string; core: string; trail: string } {
  const lead = LEAD.exec(markup)![0];
  const rest = markup.slice(lead.length);
  const trail = TRAIL.exec(rest)![0];
  return { lead, core: rest.slice(0, rest.length - trail.length), trail };
}

function segmentOf(markup: string, terms: string[]): Segment {
  const { core } = split(markup);
  const text = plainText(core);
  return {
    markup: core,
    hash: sha256(core),
    glossaryVersion: terms.length ? sha256(terms.join('\u0001')).slice(0, 16) : '',
    words: countWords(text),
    translatable: /\p{L}/u.test(text),
  };
}

/** The segments of a page, in document order. */
export function extractSegments(markdown: string, terms: readonly GlossaryTerm[]): PageSegments {
  const page = parsePageFile(markdown);
  return { segments: pageUnits(page, terms).map((u) => segmentOf(u.markup, u.terms)) };
}

/** A one-line text (a page group's or link's title) as a segment. */
export function textSegment(text: string, terms: readonly GlossaryTerm[]): { segment: Segment; apply(target: string): string | null } {
  const page = parsePageFile(`# x\n`);
  page.title = { text };
  const unit = pageUnits(page, terms)[0]!;
  return {
    segment: segmentOf(unit.markup, unit.terms),
    apply(target) {
      const { lead, trail } = split(unit.markup);
      return unit.apply(lead + target + trail) ? page.title!.text : null;
    },
  };
}

/**
 * The page with each segment replaced by its translation (`targets[i]` for segment i; null keeps the source).
 * Unchanged blocks (code, tags, HTML) keep their bytes: the page is written as a minimal diff of the source.
 */
export function assemblePage(markdown: string, terms: readonly GlossaryTerm[], targets: ReadonlyArray<string | null>): AssembledPage {
  const original = parsePageFile(markdown);
  const page = parsePageFile(markdown);
  const units = pageUnits(page, terms);
  let kept = 0;
  units.forEach((unit, i) => {
    const target = targets[i];
    if (target === null || target === undefined) return;
    const { lead, trail } = split(unit.markup);
    if (!unit.apply(lead + target + trail)) kept++;
  });
  const out = serializePageFile(page, { original: { text: markdown, page: original } });
  const result: AssembledPage = { markdown: out, kept };
  if (page.title) result.title = page.title.text;
  const description = page.frontMatter?.valid ? page.frontMatter.get('description') : undefined;
  if (typeof description === 'string') result.description = description;
  return result;
}
