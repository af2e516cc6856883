import { TranslationEngineResponseError } from '../errors.js';
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
  /**
   * Called with each part of the answer as the engine gives it (the index of its first segment in `segments`, its
   * translations in order) and awaited before the next part is asked for: the caller stores what the engine answered
   * before anything else is sent, so a worker killed mid-call loses at most the request in flight.
   */
  onAnswer?: (offset: number, targets: string[]) => Promise<void>;
}

/**
 * One translation engine. `translate` returns one translated markup per segment, in order, keeping the
 * `<xN>…</xN>` and `<xN/>` placeholders, and gives each part of the answer to `request.onAnswer` as it comes
 * (`translateInBatches`); it throws the errors of ../errors.ts.
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

/**
 * The engines' loop: the segments in batches (`batches`), each sent by `send` (one request to the engine), its answer
 * checked for one translation per segment, then given to `request.onAnswer` (awaited) before the next batch is sent.
 */
export async function translateInBatches(
  segments: readonly string[],
  request: EngineRequest,
  limits: { maxItems: number; maxChars: number; engine: string },
  send: (batch: string[]) => Promise<unknown[] | undefined>,
): Promise<string[]> {
  const out: string[] = [];
  for (const batch of batches(segments, limits.maxItems, limits.maxChars)) {
    const texts = await send(batch);
    if (!Array.isArray(texts) || texts.length !== batch.length || texts.some((t) => typeof t !== 'string'))
      throw new TranslationEngineResponseError(limits.engine, `expected ${batch.length} translations`);
    const offset = out.length;
    out.push(...(texts as string[]));
    await request.onAnswer?.(offset, texts as string[]);
  }
  return out;
}
