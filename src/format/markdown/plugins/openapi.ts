import type { GitbookConstructPlugin, LiquidTagSpec } from '../liquid/registry.js';

/**
 * API reference blocks: `openapi-operation` (spec in organization), `openapi` (spec file/URL),
 * `openapi-schemas`, `openapi-webhook`, and the legacy families `swagger` (2021–2025) and
 * `api-method` (≤2021, unquoted values).
 */
const t = (name: string, end: LiquidTagSpec['end'], attributeOrder?: string[], referenceAttributes?: Array<string | null>): LiquidTagSpec => ({
  name,
  end,
  plugin: 'openapi',
  ...(attributeOrder ? { attributeOrder } : {}),
  ...(referenceAttributes ? { referenceAttributes } : {}),
});

export const openapiPlugin: GitbookConstructPlugin = {
  name: 'openapi',
  tags: [
    t('openapi-operation', 'required', ['spec', 'path', 'method']),
    t('openapi', 'required', ['src', 'path', 'method'], ['src']),
    t('openapi-schemas', 'required', ['spec', 'schemas', 'grouped']),
    t('openapi-webhook', 'required', ['spec', 'name']),
    t('swagger', 'required', ['src', 'path', 'method', 'baseUrl', 'summary'], ['src']),
    t('swagger-description', 'required'),
    t('swagger-parameter', 'optional', ['in', 'name', 'type', 'required']),
    t('swagger-response', 'required', ['status', 'description']),
    t('api-method', 'required', ['method', 'host', 'path']),
    ...[
      'summary',
      'description',
      'spec',
      'request',
      'path-parameters',
      'query-parameters',
      'headers',
      'body-parameters',
      'form-data-parameters',
      'response',
    ].map((s) => t(`api-method-${s}`, 'required')),
    t('api-method-parameter', 'optional', ['name', 'type', 'required']),
    t('api-method-response-example', 'required', ['httpCode']),
    t('api-method-response-example-description', 'required'),
  ],
};
