/**
 * Whether a parsed YAML value, read the way JSON would read it (every alias expanded), has more than `limit`
 * values. YAML aliases make a few lines stand for billions of values ("billion laughs"): the walk stops at
 * `limit`, so it costs O(limit) whatever the document, and it is iterative (no recursion on nesting depth).
 */
export function expandsBeyond(value: unknown, limit: number): boolean {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (++count > limit) return true;
    if (node !== null && typeof node === 'object') {
      for (const child of Array.isArray(node) ? node : Object.values(node as Record<string, unknown>)) pending.push(child);
    }
  }
  return false;
}
