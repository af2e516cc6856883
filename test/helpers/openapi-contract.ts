/**
 * Contract checks against the official GitBook spec (`@gitbook/api/spec/openapi.json`, OpenAPI 3.1 = JSON
 * Schema 2020-12): finds the operation for a method and a concrete path, resolves the response schema for
 * the status, and validates a body with ajv.
 */
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const require = createRequire(import.meta.url);
const SPEC_ID = 'gitbook-openapi';

interface Operation {
  operationId?: string;
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
}
type Spec = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

let cached: { spec: Spec; ajv: Ajv2020; routes: Array<{ template: string; regex: RegExp; literal: number }> } | undefined;
const validators = new Map<string, ValidateFunction>();

function load() {
  if (cached) return cached;
  const spec = require('@gitbook/api/spec/openapi.json') as Spec;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  // GitBook's own formats are descriptive, not checkable.
  for (const f of ['emoji', 'icon', 'int32']) ajv.addFormat(f, true);
  ajv.addSchema({ $id: SPEC_ID, components: deviations(spec.components) }, SPEC_ID);
  const routes = Object.keys(spec.paths).map((template) => ({
    template,
    // `{pagePath}` spans segments (`guides/install`); other parameters are one segment.
    regex: new RegExp(
      `^${template
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{pagePath\}/g, '.+')
        .replace(/\{[^}]+\}/g, '[^/]+')}$`,
    ),
    literal: template.replace(/\{[^}]+\}/g, '').length,
  }));
  cached = { spec, ajv, routes };
  return cached;
}

/**
 * The spec as validated: the official schemas exactly as written, except two constructs that no correct body can
 * satisfy (each proved on the spec itself in test/unit/openapi-contract-deviations.test.ts). Nothing else is
 * relaxed; both deviations stay as strict as the spec's evident meaning:
 *
 * 1. `Document` is a oneOf of Markdown (`markdown` required), JSON document (`document` required) and Empty
 *    (`properties: {}`, `additionalProperties: false`). A document page is `allOf [RevisionPageBase, Document, …]`
 *    and RevisionPageBase requires `id`: no page object can ever be Empty, so a page listed without its content
 *    (GitBook's own listings: `documentId`, no body) can never validate. Empty is checked as what it stands for,
 *    "neither `markdown` nor `document`", and the oneOf stays a oneOf: exactly one of markdown, document or neither.
 * 2. `RevisionSemanticChangePageEdited.attributes` is a oneOf of the document, group and link attributes, none
 *    closed (no `additionalProperties: false`), and the group's members are a subset of the document's with the
 *    same schemas: every document-page change also matches the group branch, so that oneOf can never pass. The
 *    attributes are checked against the one branch the changed page's own `type` names.
 */
export function deviations(components: Record<string, unknown>): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(components)) as { schemas: Record<string, Record<string, unknown>> };
  const doc = copy.schemas.Document as { oneOf?: Array<Record<string, unknown>> } | undefined;
  const empty = doc?.oneOf?.findIndex((b) => b.title === 'Empty') ?? -1;
  if (doc?.oneOf && empty >= 0) doc.oneOf[empty] = { type: 'object', title: 'Empty', not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
  const edited = copy.schemas.RevisionSemanticChangePageEdited as { properties?: { attributes?: { oneOf?: unknown[] } }; allOf?: unknown[] } | undefined;
  if (edited?.properties?.attributes?.oneOf) {
    const byType: Record<string, string> = {
      document: 'RevisionPageDocumentChangeAttributes',
      group: 'RevisionPageGroupChangeAttributes',
      link: 'RevisionPageLinkChangeAttributes',
    };
    edited.properties.attributes = { anyOf: edited.properties.attributes.oneOf };
    edited.allOf = Object.entries(byType).map(([type, schema]) => ({
      if: { properties: { page: { properties: { type: { const: type } }, required: ['type'] } }, required: ['page'] },
      then: { properties: { attributes: { $ref: `#/components/schemas/${schema}` } } },
    }));
  }
  return copy;
}

/** Every (method, spec path template) whose success body (2xx) was checked in this test process. */
const checkedSuccess = new Set<string>();

/** The `METHOD template` pairs whose success bodies were checked so far in this process (a coverage test reads it). */
export function contractCheckedRoutes(): ReadonlySet<string> {
  return checkedSuccess;
}

/** A validator of `components.schemas[name]` against the spec exactly as written (no deviation): for the tests that prove a deviation is needed. */
export function strictSchemaValidator(name: string): ValidateFunction {
  const spec = require('@gitbook/api/spec/openapi.json') as Spec;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  for (const f of ['emoji', 'icon', 'int32']) ajv.addFormat(f, true);
  ajv.addSchema({ $id: 'gitbook-openapi-as-written', components: spec.components }, 'gitbook-openapi-as-written');
  return ajv.compile({ $ref: `gitbook-openapi-as-written#/components/schemas/${name}` });
}

/** The spec's raw `components.schemas` (read-only use in tests). */
export function specSchemas(): Record<string, Record<string, unknown>> {
  return (load().spec.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
}

/** The spec path template for a concrete API path (with or without `/v1` and a query string); the most literal match wins. */
export function specPathFor(path: string): string | undefined {
  const { routes } = load();
  const bare = path.split('?')[0]!.replace(/^\/v1(?=\/)/, '');
  return routes.filter((r) => r.regex.test(bare)).sort((a, b) => b.literal - a.literal)[0]?.template;
}

/** The operation for a method and a concrete path, or throws. */
export function specOperation(method: string, path: string): Operation & { template: string } {
  const template = specPathFor(path);
  if (!template) throw new Error(`no spec path matches ${path}`);
  const op = load().spec.paths[template]![method.toLowerCase()];
  if (!op) throw new Error(`the spec has no ${method.toUpperCase()} ${template}`);
  return { ...op, template };
}

/**
 * Errors (empty when valid) of `body` against the spec's response schema for `method path` and `status`.
 * A status the operation does not document, or a body where the spec documents none, is an error too.
 */
export function contractErrors(method: string, path: string, status: number, body: unknown): string[] {
  const op = specOperation(method, path);
  let response = resolveResponse(op.responses?.[String(status)] ?? op.responses?.[`${String(status)[0]}XX`]);
  const errors: string[] = [];
  if (status >= 400) {
    // Every error has the spec's error shape; an error status the operation does not list is checked against
    // the spec's shared response for that status (`UnexpectedError`, the generic `Error`, for the others).
    response ??= resolveResponse({ $ref: `#/components/responses/${GENERIC_ERRORS[status] ?? 'UnexpectedError'}` });
    const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (code !== status) errors.push(`/error/code is ${JSON.stringify(code)}, not the HTTP status ${status}`);
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    const inner = keys.includes('error') ? Object.keys((body as { error: object }).error ?? {}) : [];
    if (keys.join() !== 'error' || inner.some((k) => k !== 'code' && k !== 'message'))
      errors.push(`an error body is { error: { code, message } } only, got ${JSON.stringify(body)}`);
    if (/\bat .+:\d+:\d+\)?/.test(JSON.stringify(body))) errors.push('the error body carries a stack trace');
  }
  if (!response) return [`${method.toUpperCase()} ${op.template} documents no ${status} response (documented: ${Object.keys(op.responses ?? {}).join(', ')})`];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) {
    if (status < 300) checkedSuccess.add(`${method.toUpperCase()} ${op.template}`);
    return body === undefined || body === '' ? errors : [...errors, `${method.toUpperCase()} ${op.template} ${status} documents no JSON body`];
  }
  const key = `${method.toLowerCase()} ${op.template} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const { ajv } = load();
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${SPEC_ID}#/components/`));
    validate = ajv.compile(rewritten);
    validators.set(key, validate);
  }
  if (status < 300) checkedSuccess.add(`${method.toUpperCase()} ${op.template}`);
  if (validate(body)) return errors;
  return [...errors, ...(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)];
}

type Response = { $ref?: string; content?: Record<string, { schema?: unknown }> };

/** The spec's shared error responses by HTTP status. */
const GENERIC_ERRORS: Record<number, string> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  409: 'ConflictError',
  412: 'PreconditionFailedError',
};

/** Follows a response's `$ref` into `components.responses`. */
function resolveResponse(response: Response | undefined): Response | undefined {
  if (!response?.$ref) return response;
  const name = response.$ref.replace('#/components/responses/', '');
  const shared = (load().spec.components.responses as Record<string, Response> | undefined)?.[name];
  if (!shared) throw new Error(`the spec has no response ${response.$ref}`);
  return shared;
}

/** Throws with every schema error when `body` does not match the documented response. */
export function assertContract(method: string, path: string, status: number, body: unknown): void {
  const errors = contractErrors(method, path, status, body);
  if (errors.length > 0) throw new Error(`response of ${method.toUpperCase()} ${path} (${status}) breaks the spec:\n  ${errors.slice(0, 20).join('\n  ')}`);
}

/** Throws with every schema error when `value` is not a valid `components.schemas[name]` of the spec (for Folio's additions that reuse a spec schema). */
export function assertSchema(name: string, value: unknown): void {
  const key = `schema ${name}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = load().ajv.compile({ $ref: `${SPEC_ID}#/components/schemas/${name}` });
    validators.set(key, validate);
  }
  if (!validate(value))
    throw new Error(`value is not a valid ${name}:\n  ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('\n  ')}`);
}
