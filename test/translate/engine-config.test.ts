import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { configToEnv } from '../../src/config/child-env.js';
import { createEngine, engineNameFor } from '../../src/translate/engines/index.js';

describe('translation engine configuration', () => {
  it('Apertium by default; an engine per organization; a task queue of its own', () => {
    const config = loadConfig({ FOLIO_TASK_QUEUE: 'q1', FOLIO_TRANSLATION_ORG_ENGINES: 'acme=deepl, docs=openai' });
    expect(config.translationEngine).toBe('apertium');
    expect(engineNameFor(config, 'other')).toBe('apertium');
    expect(engineNameFor(config, 'acme')).toBe('deepl');
    expect(engineNameFor(config, 'docs')).toBe('openai');
    expect(config.translationTaskQueue).toBe('q1-translation');
    expect(loadConfig({ FOLIO_TRANSLATION_TASK_QUEUE: 'slow' }).translationTaskQueue).toBe('slow');
    expect(createEngine(config, 'apertium').name).toBe('apertium');
    // The children of `folio start` read the same settings.
    expect(loadConfig(configToEnv(config))).toMatchObject({
      translationOrgEngines: { acme: 'deepl', docs: 'openai' },
      translationTaskQueue: 'q1-translation',
    });
  });

  it('a malformed entry or an unknown engine stops startup, naming the variable', () => {
    expect(() => loadConfig({ FOLIO_TRANSLATION_ORG_ENGINES: 'acme=babelfish' })).toThrow(/FOLIO_TRANSLATION_ORG_ENGINES/);
    expect(() => loadConfig({ FOLIO_TRANSLATION_ORG_ENGINES: 'acme' })).toThrow(/FOLIO_TRANSLATION_ORG_ENGINES/);
    expect(() => loadConfig({ FOLIO_TRANSLATION_ENGINE: 'google' })).toThrow(/FOLIO_TRANSLATION_ENGINE/);
    expect(() => loadConfig({ FOLIO_DEEPL_URL: 'ftp://x' })).toThrow(/FOLIO_DEEPL_URL/);
  });

  it('an HTTP engine without its server is a clear, non-retryable error', () => {
    expect(() => createEngine(loadConfig({}), 'libretranslate')).toThrow(
      expect.objectContaining({ code: 'TRANSLATION_ENGINE_NOT_CONFIGURED', retryable: false }),
    );
  });
});
