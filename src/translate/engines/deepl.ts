/**
 * A DeepL-compatible API: `POST /v2/translate` with `Authorization: DeepL-Auth-Key …` and
 * `{ text: [..], source_lang, target_lang, tag_handling: "xml" }` answering `{ translations: [{ text }] }`;
 * `GET /v2/languages?type=source|target` lists the languages (`[{ language }]`).
 */
import { TranslationEngineAuthError, TranslationEngineResponseError, TranslationPairUnsupportedError } from '../errors.js';
import { translateInBatches, type EngineRequest, type TranslationEngine } from './engine.js';
import { HttpEngineClient, type HttpEngineOptions } from './http-client.js';

export interface DeepLOptions extends HttpEngineOptions {
  url: string;
  apiKey?: string;
}

function sourceCode(language: string): string {
  return language.split('-')[0]!.toUpperCase();
}

function targetCode(language: string): string {
  const map: Record<string, string> = { en: 'EN-US', pt: 'PT-PT', 'pt-br': 'PT-BR', zh: 'ZH-HANS', 'zh-tw': 'ZH-HANT', no: 'NB' };
  return map[language] ?? language.toUpperCase();
}

export class DeepLEngine implements TranslationEngine {
  readonly name = 'deepl';
  private readonly http: HttpEngineClient;

  constructor(private readonly options: DeepLOptions) {
    this.http = new HttpEngineClient(this.name, options);
  }

  private headers(): Record<string, string> {
    if (!this.options.apiKey) throw new TranslationEngineAuthError(this.name, 'no API key is configured (FOLIO_DEEPL_API_KEY)');
    return { authorization: `DeepL-Auth-Key ${this.options.apiKey}` };
  }

  private endpoint(path: string): string {
    return new URL(path, this.options.url.endsWith('/') ? this.options.url : `${this.options.url}/`).toString();
  }

  async checkPair(source: string, target: string): Promise<void> {
    const list = async (type: string) => {
      const body = (await this.http.json(this.endpoint(`v2/languages?type=${type}`), { method: 'GET', headers: this.headers() })) as Array<{
        language: string;
      }>;
      if (!Array.isArray(body)) throw new TranslationEngineResponseError(this.name, '/v2/languages did not answer a list');
      return body.map((l) => l.language.toUpperCase());
    };
    const [sources, targets] = [await list('source'), await list('target')];
    const t = targetCode(target);
    if (!sources.includes(sourceCode(source)) || !(targets.includes(t) || targets.includes(t.split('-')[0]!))) {
      throw new TranslationPairUnsupportedError(this.name, source, target, [`sources: ${sources.join(' ')}`, `targets: ${targets.join(' ')}`]);
    }
  }

  async translate(segments: readonly string[], request: EngineRequest): Promise<string[]> {
    return translateInBatches(segments, request, { maxItems: 50, maxChars: 100_000, engine: this.name }, async (batch) => {
      const body = (await this.http.json(this.endpoint('v2/translate'), {
        method: 'POST',
        headers: { ...this.headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ text: batch, source_lang: sourceCode(request.source), target_lang: targetCode(request.target), tag_handling: 'xml' }),
        signal: request.signal,
      })) as { translations?: Array<{ text?: unknown }> };
      return body.translations?.map((t) => t.text);
    });
  }
}
