/**
 * A LibreTranslate-compatible server: `POST /translate` with `{ q: [..], source, target, format: "html", api_key }`
 * answering `{ translatedText: [..] }`; `GET /languages` lists what it translates (`[{ code, targets }]`).
 */
import { TranslationEngineResponseError, TranslationPairUnsupportedError } from '../errors.js';
import { translateInBatches, type EngineRequest, type TranslationEngine } from './engine.js';
import { HttpEngineClient, type HttpEngineOptions } from './http-client.js';

export interface LibreTranslateOptions extends HttpEngineOptions {
  url: string;
  apiKey?: string;
}

/** LibreTranslate's codes: `pt-br` is `pt-BR`, `zh` is `zh-Hans`, `zh-tw` is `zh-Hant`. */
function code(language: string): string {
  const map: Record<string, string> = { 'pt-br': 'pt-BR', zh: 'zh-Hans', 'zh-tw': 'zh-Hant' };
  return map[language] ?? language;
}

export class LibreTranslateEngine implements TranslationEngine {
  readonly name = 'libretranslate';
  private readonly http: HttpEngineClient;

  constructor(private readonly options: LibreTranslateOptions) {
    this.http = new HttpEngineClient(this.name, options);
  }

  private endpoint(path: string): string {
    return new URL(path, this.options.url.endsWith('/') ? this.options.url : `${this.options.url}/`).toString();
  }

  async checkPair(source: string, target: string): Promise<void> {
    const languages = (await this.http.json(this.endpoint('languages'), { method: 'GET' })) as Array<{ code: string; targets?: string[] }>;
    if (!Array.isArray(languages)) throw new TranslationEngineResponseError(this.name, '/languages did not answer a list');
    const from = languages.find((l) => l.code === code(source));
    if (!from || !(from.targets ?? []).includes(code(target))) {
      const pairs = languages.flatMap((l) => (l.targets ?? []).filter((t) => t !== l.code).map((t) => `${l.code}-${t}`));
      throw new TranslationPairUnsupportedError(this.name, source, target, pairs.slice(0, 200));
    }
  }

  async translate(segments: readonly string[], request: EngineRequest): Promise<string[]> {
    return translateInBatches(segments, request, { maxItems: 50, maxChars: 20_000, engine: this.name }, async (batch) => {
      const body = (await this.http.json(this.endpoint('translate'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          q: batch,
          source: code(request.source),
          target: code(request.target),
          format: 'html',
          ...(this.options.apiKey ? { api_key: this.options.apiKey } : {}),
        }),
        signal: request.signal,
      })) as { translatedText?: unknown };
      return Array.isArray(body.translatedText) ? (body.translatedText as unknown[]) : undefined;
    });
  }
}
