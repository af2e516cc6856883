/**
 * Request bodies checked against the official GitBook spec (`@gitbook/api/spec/openapi.json`, OpenAPI 3.1 = JSON
 * Schema 2020-12) where Folio takes a whole official object (a site's customization): the spec is loaded and the
 * schema compiled on first use, once. A body that does not validate is a 400 naming the first wrong member.
 */
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { badRequest } from './http-errors.js';
import { describeSchemaError } from './schema.js';

const require = createRequire(import.meta.url);
const SPEC_ID = 'gitbook-openapi';

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function validator(pointer: string): ValidateFunction {
  let v = compiled.get(pointer);
  if (v) return v;
  if (!ajv) {
    const spec = require('@gitbook/api/spec/openapi.json') as { components: unknown; paths: unknown };
    ajv = new Ajv2020({ strict: false, allErrors: false, logger: false });
    ajv.addFormat('uri', (s: string) => URL.canParse(s));
    ajv.addSchema({ $id: SPEC_ID, components: spec.components, paths: spec.paths }, SPEC_ID);
  }
  v = ajv.getSchema(`${SPEC_ID}#${pointer}`);
  if (!v) throw new Error(`no schema at ${pointer} in the official spec`);
  compiled.set(pointer, v);
  return v;
}

/** The JSON pointer of a component schema (`SiteCustomizationSettingsInput`). */
export const componentSchema = (name: string) => `/components/schemas/${name}`;

/** The JSON pointer of an operation's JSON request body schema. */
export const requestBodySchema = (path: string, method: string) =>
  `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/requestBody/content/application~1json/schema`;

/** Throws a 400 unless `value` validates against the schema at `pointer`. */
export function checkOfficial(pointer: string, value: unknown, context = 'body'): void {
  const validate = validator(pointer);
  if (validate(value)) return;
  const errors = validate.errors ?? [];
  // A oneOf's own error says little: the error of the deepest member says what is wrong.
  const deepest = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  throw badRequest(deepest ? describeSchemaError(deepest as never, context) : `${context} is invalid`);
}
