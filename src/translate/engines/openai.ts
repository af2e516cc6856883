/**
 * An OpenAI-compatible chat-completions API (`POST /chat/completions`, `Authorization: Bearer …`): the system
 * message carries the rules (keep the `<xN>` placeholders, translate only text), the translation's instructions and
 * the glossary; the user message is a JSON array of segments; the answer must be `{ "translations": [..] }` with
 * as many strings.
 */
import { TranslationEngineAuthError, TranslationEngineResponseError } from '../errors.js';
import { translateInBatches, type EngineRequest, type TranslationEngine } from './engine.js';
import { HttpEngineClient, type HttpEngineOptions } from './http-client.js';

export interface OpenAiOptions extends HttpEngineOptions {
  url: string;
  apiKey?: string;
  model: string;
}

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  fr: 'French',
  de: 'German',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  'pt-br': 'Brazilian Portuguese',
  ru: 'Russian',
  ja: 'Japanese',
  zh: 'Simplified Chinese',
  'zh-tw': 'Traditional Chinese',
  yue: 'Cantonese',
  ko: 'Korean',
  ar: 'Arabic',
  hi: 'Hindi',
  nl: 'Dutch',
  pl: 'Polish',
  tr: 'Turkish',
  sv: 'Swedish',
  no: 'Norwegian',
  da: 'Danish',
  fi: 'Finnish',
  el: 'Greek',
  cs: 'Czech',
  hu: 'Hungarian',
  ro: 'Romanian',
  th: 'Thai',
  vi: 'Vietnamese',
  id: 'Indonesian',
  ms: 'Malay',
  he: 'Hebrew',
  uk: 'Ukrainian',
  sk: 'Slovak',
  bg: 'Bulgarian',
  hr: 'Croatian',
  lt: 'Lithuanian',
  lv: 'Latvian',
  et: 'Estonian',
  sl: 'Slovenian',
};

function languageName(code: string): string {
  return LANGUAGE_NAMES[code] ?? code;
}

/** The system message of a request (exported for tests of the prompt). */
export function systemPrompt(request: EngineRequest): string {
  const lines = [
    `You translate technical documentation from ${languageName(request.source)} (${request.source}) to ${languageName(request.target)} (${request.target}).`,
    'The user sends a JSON array of segments. Answer with a JSON object {"translations": [...]} holding exactly one translated string per segment, in the same order.',
    'Segments are HTML-escaped text with placeholders <xN>…</xN> and <xN/>: keep every placeholder exactly once, unchanged, around the translation of what it wraps; keep &amp; &lt; &gt; escapes; do not add markup.',
  ];
  if (request.glossary.length) {
    lines.push('Glossary (always translate these terms this way):');
    for (const t of request.glossary) lines.push(`- ${t.source} → ${t.target}`);
  }
  if (request.instructions?.trim()) lines.push('Instructions from the documentation team:', request.instructions.trim());
  return lines.join('\n');
}

export class OpenAiEngine implements TranslationEngine {
  readonly name = 'openai';
  private readonly http: HttpEngineClient;

  constructor(private readonly options: OpenAiOptions) {
    this.http = new HttpEngineClient(this.name, options);
  }

  async checkPair(): Promise<void> {
    // A chat model translates any pair of the API's languages.
  }

  async translate(segments: readonly string[], request: EngineRequest): Promise<string[]> {
    if (!this.options.apiKey) throw new TranslationEngineAuthError(this.name, 'no API key is configured (FOLIO_OPENAI_API_KEY)');
    const url = new URL('chat/completions', this.options.url.endsWith('/') ? this.options.url : `${this.options.url}/`).toString();
    return translateInBatches(segments, request, { maxItems: 40, maxChars: 12_000, engine: this.name }, async (batch) => {
      const body = (await this.http.json(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: this.options.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: systemPrompt(request) },
            { role: 'user', content: JSON.stringify(batch) },
          ],
        }),
        signal: request.signal,
      })) as { choices?: Array<{ message?: { content?: unknown } }> };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new TranslationEngineResponseError(this.name, 'the answer has no message content');
      let parsed: unknown;
      try {
        parsed = JSON.parse(content);
      } catch {
        throw new TranslationEngineResponseError(this.name, 'the message content is not JSON');
      }
      const texts = (parsed as { translations?: unknown }).translations;
      return Array.isArray(texts) ? (texts as unknown[]) : undefined;
    });
  }
}
