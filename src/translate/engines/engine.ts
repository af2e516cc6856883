import type { GlossaryTerm } from '../markup.js';

/** What an engine is asked: a batch of segments (markup with placeholders) from one language into another. */
export interface EngineRequest {
  /** Language codes as the API gives them (`en`, `es`, `pt-br`). */
  source: string;
  target: string;
  /** The translation's instructions as plain text (engines that take instructions use them). */
  instructions?: string;
  /** The organization's glossary for this pair (terms are also kept as placeholders). */
  glossary: readonly GlossaryTerm[];
  signal?: AbortSignal;
}

/**
 * One translation engine. `translate` returns one translated markup per segment, in order, keeping the
 * `<xN>…</xN>` and `<xN/>` placeholders; it throws the errors of ../errors.ts.
 */
export interface TranslationEngine {
  /** `apertium`, `libretranslate`, `deepl`, `openai`. */
  readonly name: string;
  /** Fails with TranslationPairUnsupportedError when the pair cannot be translated (before any segment is sent). */
  checkPair(source: string, target: string): Promise<void>;
  translate(segments: readonly string[], request: EngineRequest): Promise<string[]>;
  close?(): Promise<void>;
}

/** Splits segments into batches of at most `maxItems` segments and `maxChars` characters. */
export function batches(segments: readonly string[], maxItems: number, maxChars: number): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const s of segments) {
    if (current.length > 0 && (current.length >= maxItems || size + s.length > maxChars)) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(s);
    size += s.length;
  }
  if (current.length) out.push(current);
  return out;
}
