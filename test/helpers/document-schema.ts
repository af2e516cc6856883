/**
 * A strict validator of GitBook's `JSONDocument`: the official spec's schemas as written (every `oneOf`,
 * `additionalProperties: false`, `required`, `enum` and format), ajv in strict mode (an unknown keyword or format
 * is an error, not ignored). Only ajv's schema-authoring lints that the spec itself does not follow are off
 * (`strictTypes`, `strictTuples`, `strictRequired`: `type` left implicit in `allOf` branches); they change no
 * verdict on a document. `allErrors` is off: it changes only how many errors are reported, and with the spec's
 * nested `oneOf`s it makes validation twenty times slower.
 */
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const require = createRequire(import.meta.url);

let validate: ValidateFunction | undefined;

export function documentValidator(): ValidateFunction {
  if (validate) return validate;
  const spec = require('@gitbook/api/spec/openapi.json') as { components: Record<string, unknown> };
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, allErrors: false, validateFormats: true });
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  // OpenAPI annotations (not validation keywords) and GitBook's descriptive formats.
  ajv.addVocabulary(['example', 'x-internal', 'x-stability', 'x-enumDescriptions', 'x-gitbook-enum', 'x-deprecated']);
  for (const f of ['emoji', 'icon', 'int32']) ajv.addFormat(f, true);
  const schemas = JSON.parse(JSON.stringify(spec.components.schemas).replaceAll('"#/components/schemas/', '"gitbook#/$defs/')) as Record<string, unknown>;
  ajv.addSchema({ $id: 'gitbook', $defs: schemas });
  validate = ajv.compile({ $ref: 'gitbook#/$defs/JSONDocument' });
  return validate;
}

export function documentErrors(document: unknown): string[] {
  const v = documentValidator();
  if (v(document)) return [];
  return (v.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
