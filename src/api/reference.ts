/**
 * The API reference (docs/api-reference.md), written from the routes' own request schemas: what each `/v1` route
 * takes in its path, query and body. `npx folio api-reference` prints it; a test keeps the page current.
 */
import type { FastifySchema } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
  schema?: FastifySchema;
}

type Schema = Record<string, unknown>;

function typeOf(s: Schema): string {
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  const variants = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (variants) return variants.map(typeOf).join(' \\| ');
  const type = Array.isArray(s.type) ? s.type.join(' \\| ') : String(s.type ?? 'any');
  if (s.type === 'array' && s.items) return `${typeOf(s.items as Schema)}[]`;
  return type;
}

function limits(s: Schema): string {
  const out: string[] = [];
  for (const [key, label] of [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minimum', 'min'],
    ['maximum', 'max'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
    ['pattern', 'pattern'],
    ['format', 'format'],
  ] as const)
    if (s[key] !== undefined) out.push(`${label} ${key === 'pattern' ? `\`${String(s[key])}\`` : String(s[key])}`);
  return out.join(', ');
}

/** One row per member, nested members dotted (`changes[].document.markdown`); variants of `oneOf` merged. */
function members(schema: Schema | undefined, prefix = ''): string[] {
  if (!schema) return [];
  const rows: string[] = [];
  const variants = [schema, ...(((schema.oneOf ?? schema.anyOf) as Schema[] | undefined) ?? [])];
  const seen = new Set<string>();
  for (const variant of variants) {
    const props = (variant.properties ?? {}) as Record<string, Schema>;
    const required = new Set((variant.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(props)) {
      const path = `${prefix}${name}`;
      if (seen.has(path)) continue;
      seen.add(path);
      rows.push(`| \`${path}\` | ${typeOf(prop)} | ${required.has(name) ? 'yes' : ''} | ${limits(prop)} |`);
      if (prop.properties || prop.oneOf) rows.push(...members(prop, `${path}.`));
      const items = prop.items as Schema | undefined;
      if (items && (items.properties || items.oneOf)) rows.push(...members(items, `${path}[].`));
    }
  }
  return rows;
}

function section(title: string, schema: unknown): string[] {
  const rows = members(schema as Schema | undefined);
  if (rows.length === 0) return [];
  return [`${title}:`, '', '| member | type | required | limits |', '| --- | --- | --- | --- |', ...rows, ''];
}

/** The reference page, routes ordered by path then method. */
export function apiReference(routes: RouteEntry[]): string {
  const order = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const sorted = routes
    .filter((r) => r.url.startsWith('/v1/') && order.includes(r.method))
    .sort((a, b) => a.url.localeCompare(b.url) || order.indexOf(a.method) - order.indexOf(b.method));
  const out = [
    '# API reference',
    '',
    'Written from the request schema each route declares (`npx folio api-reference`; a test checks that this page is',
    'current). Every object is closed: a member not listed here is answered `400` with the member named. Request',
    'and response shapes follow the official `@gitbook/api` specification; [api.md](api.md) walks through the calls.',
    '',
  ];
  for (const r of sorted) {
    out.push(`## ${r.method} ${r.url}`, '');
    out.push(...section('Path', r.schema?.params), ...section('Query', r.schema?.querystring), ...section('Body', r.schema?.body));
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
