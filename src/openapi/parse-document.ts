import jsYaml from 'js-yaml';
import { SpecParseError, SpecTooComplexError } from './errors.js';

/** Text of a fetched or submitted document: UTF-8, without a byte-order mark. */
export function decodeDocumentText(body: Buffer | string): string {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Whether the text is JSON rather than YAML (by its first significant character). */
export function looksLikeJson(text: string): boolean {
  const first = /\S/.exec(text)?.[0];
  return first === '{' || first === '[';
}

/** Most nodes a document may expand to through YAML aliases, beyond its own size ("billion laughs"). */
export const MAX_EXPANDED_NODES = 5_000_000;

/**
 * Parses one JSON or YAML document. YAML uses the 1.2 core schema (js-yaml), so `version: 2024-01-01` stays
 * a string. Aliases are shared objects after parsing; a document whose aliases would expand it beyond
 * {@link MAX_EXPANDED_NODES} nodes, or nested too deeply to walk, is SPEC_TOO_COMPLEX, since validation walks
 * the expanded tree. Other failures are PARSE_ERROR with `file:line:column` locations.
 */
export function parseDocumentText(text: string, file: string, options: { requireObject?: boolean } = {}): unknown {
  let value: unknown;
  let parsed = false;
  if (looksLikeJson(text)) {
    try {
      value = JSON.parse(text);
      parsed = true;
    } catch {
      // Fall through to the YAML parser, which accepts JSON and says where it breaks.
    }
  }
  if (!parsed) {
    try {
      value = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, filename: file });
    } catch (err) {
      if (err instanceof jsYaml.YAMLException) {
        const mark = err.mark as { line?: number; column?: number } | undefined;
        const where = mark && typeof mark.line === 'number' ? `${file}:${mark.line + 1}:${(mark.column ?? 0) + 1}` : file;
        throw new SpecParseError([{ location: where, message: err.reason || 'invalid YAML' }], { cause: err });
      }
      throw new SpecParseError([{ location: file, message: err instanceof Error ? err.message : String(err) }], { cause: err });
    }
    let expanded: number;
    try {
      expanded = expandedSize(value, MAX_EXPANDED_NODES);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      throw new SpecTooComplexError('stack', undefined, file, { cause: err });
    }
    if (expanded > MAX_EXPANDED_NODES) {
      throw new SpecTooComplexError('aliases', MAX_EXPANDED_NODES, file);
    }
  }
  if (options.requireObject && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw new SpecParseError([{ location: file, message: 'the document must be a JSON or YAML object (mapping)' }]);
  }
  return value;
}

/**
 * Number of nodes of the tree as a reader that follows every alias would see it, computed in linear time
 * over the distinct objects (memoized), stopping once past `limit`. Cycles (recursive aliases) count as
 * past the limit.
 */
function expandedSize(root: unknown, limit: number): number {
  const memo = new Map<object, number>();
  const active = new Set<object>();
  const size = (node: unknown): number => {
    if (node === null || typeof node !== 'object') return 1;
    const cached = memo.get(node);
    if (cached !== undefined) return cached;
    if (active.has(node)) return limit + 1;
    active.add(node);
    let total = 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      total += size(child);
      if (total > limit) break;
    }
    active.delete(node);
    memo.set(node, total);
    return total;
  };
  return size(root);
}
