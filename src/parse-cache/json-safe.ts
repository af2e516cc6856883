/**
 * Whether a value comes back identical through JSON (plain objects, arrays, strings, finite numbers, booleans,
 * null; object members that are undefined are left out). Anything else (a Date from YAML front matter, NaN, -0, a
 * Map, undefined in an array) is not cached: such a page is parsed every time rather than changed by the cache.
 */
export function jsonSafe(value: unknown, depth = 0): boolean {
  if (depth > 200) return false;
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (Array.isArray(value)) return value.every((v) => v !== undefined && jsonSafe(v, depth + 1));
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key of Object.keys(value)) {
        if (key === '__proto__') return false;
        const v = (value as Record<string, unknown>)[key];
        if (v !== undefined && !jsonSafe(v, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}
