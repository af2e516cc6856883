import type { ElementContent } from 'hast';
import yaml from 'js-yaml';
import { el, attr, text } from './hast.js';
import type { RenderSpec } from './context.js';
import type { BlockContext, BlockRenderer } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parsed documents of the specs of one page (a spec used by several blocks is parsed once). */
const parsed = new WeakMap<RenderSpec, Map<string, unknown>>();

function doc(spec: RenderSpec, path: string): unknown {
  let cache = parsed.get(spec);
  if (!cache) parsed.set(spec, (cache = new Map()));
  if (!cache.has(path)) {
    const source = spec.filesystem[path];
    let value: unknown = null;
    if (source !== undefined) {
      try {
        value = JSON.parse(source);
      } catch {
        value = yaml.load(source, { json: true });
      }
    }
    cache.set(path, value);
  }
  return cache.get(path);
}

function joinPath(from: string, rel: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const seg of rel.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** Follows `$ref`s (local pointers and files of the processed spec), at most 20 hops. */
function deref(spec: RenderSpec, value: unknown, at: string): { value: unknown; at: string } {
  for (let hops = 0; hops < 20 && isObj(value) && typeof value.$ref === 'string'; hops++) {
    const [file, pointer = ''] = value.$ref.split('#');
    const path = file ? joinPath(at, file) : at;
    let target: unknown = doc(spec, path);
    for (const seg of pointer.split('/').slice(1)) {
      const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObj(target) || Array.isArray(target) ? (target as Obj)[key] : undefined;
    }
    value = target;
    at = path;
  }
  return { value, at };
}

function typeOf(spec: RenderSpec, schema: unknown, at: string): string {
  const { value } = deref(spec, schema, at);
  if (!isObj(value)) return '';
  if (typeof value.type === 'string') return value.type === 'array' ? `${typeOf(spec, value.items, at) || 'any'}[]` : value.type;
  if (Array.isArray(value.type)) return value.type.join(' | ');
  for (const k of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(value[k])) return k;
  if (isObj(value.properties)) return 'object';
  return '';
}

function schemaTable(spec: RenderSpec, schema: unknown, at: string, depth = 0): ElementContent[] {
  const { value, at: here } = deref(spec, schema, at);
  if (!isObj(value) || depth > 3) return [];
  const props = isObj(value.properties) ? value.properties : isObj(value.items) ? (deref(spec, value.items, here).value as Obj)?.properties : undefined;
  if (!isObj(props)) return [el('p', {}, [el('code', {}, [text(typeOf(spec, value, here) || 'any')])])];
  const required = new Set(Array.isArray(value.required) ? (value.required as string[]) : []);
  return [
    el('table', { className: ['schema'] }, [
      el('thead', {}, [el('tr', {}, [el('th', {}, [text('Name')]), el('th', {}, [text('Type')]), el('th', {}, [text('Description')])])]),
      el(
        'tbody',
        {},
        Object.entries(props).map(([name, p]) => {
          const d = deref(spec, p, here).value as Obj | undefined;
          return el('tr', {}, [
            el('td', {}, [el('code', {}, [text(name)]), ...(required.has(name) ? [text(' *')] : [])]),
            el('td', {}, [text(typeOf(spec, p, here))]),
            el('td', {}, [text(typeof d?.description === 'string' ? d.description : '')]),
          ]);
        }),
      ),
    ]),
  ];
}

function operationOf(spec: RenderSpec, path: string, method: string): { op: Obj; at: string } | null {
  const root = doc(spec, spec.rootPath);
  if (!isObj(root) || !isObj(root.paths)) return null;
  const item = deref(spec, root.paths[path], spec.rootPath);
  if (!isObj(item.value)) return null;
  const op = deref(spec, item.value[method.toLowerCase()], item.at);
  return isObj(op.value) ? { op: op.value, at: op.at } : null;
}

/** One operation: method and path, summary, description, parameters, request body and responses. */
export function renderOperation(spec: RenderSpec, path: string, method: string, ctx: BlockContext) {
  const found = operationOf(spec, path, method);
  if (!found) {
    ctx.links.warn('PUBLISH_SPEC_MISSING', `the OpenAPI spec has no operation ${method.toUpperCase()} ${path}`);
    return el('p', { className: ['openapi-missing'] }, [text(`${method.toUpperCase()} ${path}`)]);
  }
  const { op, at } = found;
  const out: ElementContent[] = [
    el('p', { className: ['openapi-endpoint'] }, [
      el('span', { className: ['method', `method-${method.toLowerCase()}`] }, [text(method.toUpperCase())]),
      text(' '),
      el('code', {}, [text(path)]),
    ]),
  ];
  if (typeof op.summary === 'string') out.push(el('p', { className: ['openapi-summary'] }, [el('strong', {}, [text(op.summary)])]));
  if (typeof op.description === 'string') out.push(el('p', {}, [text(op.description)]));
  const params = Array.isArray(op.parameters) ? op.parameters.map((p) => deref(spec, p, at).value).filter(isObj) : [];
  if (params.length > 0) {
    out.push(el('h4', {}, [text('Parameters')]));
    out.push(
      el('table', { className: ['schema'] }, [
        el('thead', {}, [
          el(
            'tr',
            {},
            ['Name', 'In', 'Type', 'Description'].map((h) => el('th', {}, [text(h)])),
          ),
        ]),
        el(
          'tbody',
          {},
          params.map((p) =>
            el('tr', {}, [
              el('td', {}, [el('code', {}, [text(String(p.name ?? ''))]), ...(p.required === true ? [text(' *')] : [])]),
              el('td', {}, [text(String(p.in ?? ''))]),
              el('td', {}, [text(typeOf(spec, p.schema, at))]),
              el('td', {}, [text(typeof p.description === 'string' ? p.description : '')]),
            ]),
          ),
        ),
      ]),
    );
  }
  const body = deref(spec, op.requestBody, at).value;
  if (isObj(body) && isObj(body.content)) {
    const [type, media] = Object.entries(body.content)[0] ?? [];
    out.push(el('h4', {}, [text(`Request body${type ? ` (${type})` : ''}`)]));
    if (isObj(media)) out.push(...schemaTable(spec, media.schema, at));
  }
  if (isObj(op.responses)) {
    out.push(el('h4', {}, [text('Responses')]));
    out.push(
      el(
        'dl',
        { className: ['responses'] },
        Object.entries(op.responses).flatMap(([status, r]) => {
          const resp = deref(spec, r, at).value as Obj | undefined;
          return [el('dt', {}, [el('code', {}, [text(status)])]), el('dd', {}, [text(typeof resp?.description === 'string' ? resp.description : '')])];
        }),
      ),
    );
  }
  return el('section', { className: ['openapi-operation'], ariaLabel: `${method.toUpperCase()} ${path}` }, out);
}

/**
 * `{% openapi-operation spec="slug" path method %}` (a spec of the organization, from its last processed
 * version) and `{% openapi src path method %}` / `{% swagger src path method %}` (a spec file of the space).
 */
export const openapiBlock: BlockRenderer = {
  names: ['openapi-operation', 'openapi', 'swagger'],
  render(node, ctx) {
    const slug = attr(node, 'spec');
    const src = attr(node, 'src');
    if (slug === undefined && src === undefined) {
      // Legacy blocks (`{% swagger method path %}` with their description, parameters and responses inline).
      const legacy = `${(attr(node, 'method') ?? '').toUpperCase()} ${attr(node, 'path') ?? ''}`.trim();
      return el('section', { className: ['openapi-operation'] }, [el('p', {}, [el('code', {}, [text(legacy)])]), ...ctx.state.all(node as never)]);
    }
    const key = slug !== undefined ? `spec:${slug}` : `src:${src ?? ''}`;
    const spec = ctx.links.spec(key);
    const path = attr(node, 'path') ?? '';
    const method = (attr(node, 'method') ?? 'get').toLowerCase();
    if (!spec) {
      ctx.links.warn('PUBLISH_SPEC_MISSING', `OpenAPI spec not available: ${slug ?? src ?? ''}`);
      return el('section', { className: ['openapi-operation', 'openapi-missing'] }, [
        el('p', {}, [el('code', {}, [text(`${method.toUpperCase()} ${path}`)])]),
        ...ctx.state.all(node as never),
      ]);
    }
    return renderOperation(spec, path, method, ctx);
  },
};
