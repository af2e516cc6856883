/** The content-addressed parse cache shared by the spaces of an organization (see cached-page-codec.ts). */
export { cachedPageCodec, contentKey, type CachedPageCodec, type CachedPageCodecOptions, type ParseCacheStats } from './cached-page-codec.js';
export { converterVersion, computeConverterVersion } from './converter-version.js';
export { jsonSafe } from './json-safe.js';
export { pruneParseCache, pruneParseCacheNow } from './prune-parse-cache.js';
