import type { Root } from 'hast';
import { docusaurusExtractor } from './docusaurus.js';
import { gitbookExtractor } from './gitbook.js';
import { heuristicExtractor } from './heuristic.js';
import { honkitExtractor } from './honkit.js';
import { mkdocsMaterialExtractor } from './mkdocs-material.js';
import { mkdocsExtractor } from './mkdocs.js';
import { sphinxExtractor } from './sphinx.js';
import type { GeneratorExtractor } from './types.js';

/** Most specific first: Material is also MkDocs; the heuristic recognises anything. */
export const EXTRACTORS: GeneratorExtractor[] = [
  honkitExtractor,
  mkdocsMaterialExtractor,
  mkdocsExtractor,
  sphinxExtractor,
  docusaurusExtractor,
  gitbookExtractor,
  heuristicExtractor,
];

/** The generator that built the page and has its markup on this page (else the heuristic). */
export function detectGenerator(tree: Root): GeneratorExtractor {
  for (const extractor of EXTRACTORS) if (extractor.detect(tree) && extractor.main(tree)) return extractor;
  return heuristicExtractor;
}
