/** The engine of an organization, built from the configuration (`FOLIO_TRANSLATION_ENGINE`, `FOLIO_TRANSLATION_ORG_ENGINES`). */
import type { Config, TranslationEngineName } from '../../config/config.js';
import { fetchPolicyFromConfig } from '../../net/policy.js';
import { ApertiumEngine } from './apertium.js';
import { DeepLEngine } from './deepl.js';
import type { TranslationEngine } from './engine.js';
import { LibreTranslateEngine } from './libretranslate.js';
import { OpenAiEngine } from './openai.js';
import { TranslationEngineNotConfiguredError } from '../errors.js';

export type { TranslationEngine, EngineRequest } from './engine.js';
export { ApertiumEngine } from './apertium.js';
export { LibreTranslateEngine } from './libretranslate.js';
export { DeepLEngine } from './deepl.js';
export { OpenAiEngine, systemPrompt } from './openai.js';
export { installedModes, findMode } from './apertium-pairs.js';

export function engineNameFor(config: Config, organizationId: string): TranslationEngineName {
  return config.translationOrgEngines[organizationId] ?? config.translationEngine;
}

/** Builds an engine; HTTP engines fetch through the guard with the configured policy and rate limit. */
export function createEngine(config: Config, name: TranslationEngineName): TranslationEngine {
  const http = { policy: fetchPolicyFromConfig(config), requestsPerSecond: config.translationRateLimit };
  switch (name) {
    case 'apertium':
      return new ApertiumEngine({ apyUrl: config.apertiumUrl, ...http });
    case 'libretranslate':
      if (!config.libretranslateUrl) throw new TranslationEngineNotConfiguredError('libretranslate', 'no server is configured (FOLIO_LIBRETRANSLATE_URL)');
      return new LibreTranslateEngine({ url: config.libretranslateUrl, apiKey: config.libretranslateApiKey, ...http });
    case 'deepl':
      return new DeepLEngine({ url: config.deeplUrl, apiKey: config.deeplApiKey, ...http });
    case 'openai':
      return new OpenAiEngine({ url: config.openaiUrl, apiKey: config.openaiApiKey, model: config.openaiModel, ...http });
  }
}
