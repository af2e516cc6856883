/**
 * Request schemas: one per route (body, querystring, params), declared next to the route and validated by Fastify's
 * Ajv before the handler runs. Every object of a request schema is closed — a member the route does not know, or one
 * put at the wrong level (`markdown` beside a change instead of inside its `document`), is a 400 that names it —
 * unless the schema says otherwise with an explicit `additionalProperties`.
 */
import type { FastifySchema } from 'fastify';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type SchemaObject = { [key: string]: Json | undefined };

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const SUBSCHEMAS = ['items', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties'] as const;

function isObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a schema describes objects with named members (and so can be closed). */
function describesObject(schema: SchemaObject): boolean {
  const type = schema.type;
  return isObject(schema.properties) && (type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object')));
}

/**
 * A copy of `schema` in which every object schema with `properties` and no `additionalProperties` of its own gets
 * `additionalProperties: false`, at every depth. A schema combined with `allOf` keeps its branches open (each
 * branch alone would refuse the others' members); write such a route's object in one piece instead.
 */
export function closed<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((s: unknown) => closed(s)) as T;
  if (!isObject(schema)) return schema;
  const out: SchemaObject = { ...schema };
  for (const key of SUBSCHEMAS) if (isObject(out[key])) out[key] = closed(out[key]) as Json;
  for (const key of SUBSCHEMA_LISTS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = key === 'allOf' ? list : (list.map((s) => closed(s)) as Json);
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = out[key];
    if (isObject(map)) out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, closed(v)])) as Json;
  }
  if (describesObject(out) && !('additionalProperties' in out)) out.additionalProperties = false;
  return out as T;
}

/** A route's request schema with its body, querystring and params closed (the server's `onRoute` hook applies it to every route). */
export function requestSchema(schema: FastifySchema): FastifySchema {
  const out: FastifySchema = { ...schema };
  for (const part of ['body', 'querystring', 'params'] as const) if (out[part] !== undefined) out[part] = closed(out[part]);
  return out;
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `body.changes[0].document` from `/changes/0/document`. */
function where(context: string, instancePath: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : `${out}.${p}`), context === 'querystring' ? 'query' : context);
}

/** One readable sentence per Ajv error: the member's place, and what is wrong with it. */
export function describeSchemaError(error: AjvError, context: string): string {
  const at = where(context, error.instancePath);
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at} has an unknown member "${String(error.params.additionalProperty)}"`;
    case 'required':
      return `${at} must have the member "${String(error.params.missingProperty)}"`;
    case 'enum':
      return `${at} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

/** Fastify's `schemaErrorFormatter`: the first error, named (Ajv stops at the first one). */
export function schemaErrorFormatter(errors: AjvError[], context: string): Error {
  const first = errors[0];
  return new Error(first ? describeSchemaError(first, context) : `${context} is invalid`);
}
