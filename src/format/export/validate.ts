import { InvalidRevisionError } from '../errors.js';
import type { RevisionModel } from '../model.js';
import { allPages } from '../summary/from-revision.js';

/** First phase: a revision with a page without id, a duplicate id or a group below the top level is not exported. */
export function validateRevision(revision: RevisionModel): void {
  const ids = new Set<string>();
  for (const p of allPages(revision.pages)) {
    if (!p.id) throw new InvalidRevisionError('a page has no id');
    if (ids.has(p.id)) throw new InvalidRevisionError(`duplicate page id ${p.id}`, { id: p.id });
    ids.add(p.id);
    if (p.kind !== 'group' && p.children.some((c) => c.kind === 'group'))
      throw new InvalidRevisionError(`group below top level (in page ${p.id})`, { id: p.id });
  }
}
