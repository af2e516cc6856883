import { FolioError } from '../errors.js';

/** The engine cannot translate this language pair; the message lists the pairs it can. Not retried. */
export class TranslationPairUnsupportedError extends FolioError {
  constructor(engine: string, source: string, target: string, installed: readonly string[]) {
    super(
      'TRANSLATION_PAIR_UNSUPPORTED',
      `${engine} cannot translate ${source} → ${target}; ${installed.length ? `installed pairs: ${installed.join(', ')}` : 'no language pair is installed'}`,
      { data: { engine, source, target, installed: [...installed] } },
    );
  }
}

/** The engine failed (a timeout, a 5xx, a 429 after the retries, a crashed process): another attempt may pass. */
export class TranslationEngineError extends FolioError {
  constructor(engine: string, message: string, options: { retryable?: boolean; cause?: unknown; status?: number } = {}) {
    super('TRANSLATION_ENGINE_FAILED', `${engine}: ${message}`, {
      retryable: options.retryable ?? true,
      cause: options.cause,
      data: { engine, ...(options.status !== undefined ? { status: options.status } : {}) },
    });
  }
}

/** The provider refused the credentials (401/403), or none are configured. Not retried. */
export class TranslationEngineAuthError extends FolioError {
  constructor(engine: string, message: string) {
    super('TRANSLATION_ENGINE_AUTH', `${engine}: ${message}`, { data: { engine } });
  }
}

/** The engine answered something that is not a translation of what was sent (wrong count, bad JSON). */
export class TranslationEngineResponseError extends FolioError {
  constructor(engine: string, message: string) {
    super('TRANSLATION_ENGINE_BAD_RESPONSE', `${engine}: ${message}`, { retryable: true, data: { engine } });
  }
}

/** The configured engine lacks a setting it needs (a server URL). Not retried. */
export class TranslationEngineNotConfiguredError extends FolioError {
  constructor(engine: string, message: string) {
    super('TRANSLATION_ENGINE_NOT_CONFIGURED', `${engine}: ${message}`, { data: { engine } });
  }
}

/** The source space has no content yet: nothing to translate. Not retried. */
export class TranslationSourceEmptyError extends FolioError {
  constructor(spaceId: string) {
    super('TRANSLATION_SOURCE_EMPTY', `the source space ${spaceId} has no content yet`, { data: { spaceId } });
  }
}
