import { allPages } from '../summary/from-revision.js';
import type { ImportContext } from './context.js';

/**
 * Phase "ids": each page takes the id it had in the previous revision: a document by its file path, then by its
 * content (a moved file), a group by its title, a link by its destination, a computed entry by its source (the n-th
 * one today takes the n-th one's id); any other page gets a new id. No id is given twice.
 */
export function assignPageIds(ctx: Pick<ImportContext, 'loads' | 'pages' | 'pageByPath' | 'prev' | 'ids'>): void {
  const { prev, ids } = ctx;
  for (const { page } of ctx.loads) {
    const p = prev.byPath.get(page.git!.path);
    if (p && !ids.has(p.id)) page.id = ids.claim(p.id);
  }
  for (const { page } of ctx.loads) {
    if (page.id !== '') continue;
    const cands = prev.byOid.get(page.git!.oid) ?? [];
    const free = cands.find((c) => !ids.has(c.id) && !ctx.pageByPath.has(c.git!.path));
    page.id = ids.claim(free?.id);
  }
  for (const p of allPages(ctx.pages)) {
    if (p.id !== '') continue;
    const free = (list: string[] | undefined) => list?.find((id) => !ids.has(id));
    if (p.kind === 'group') p.id = ids.claim(free(prev.groupsByTitle.get(p.untitled ? '***' : p.title)?.map((g) => g.id)));
    else if (p.kind === 'link') p.id = ids.claim(free(prev.linksByHref.get(p.href)?.map((l) => l.id)));
    else if (p.kind === 'computed') p.id = ids.claim(free(prev.otherIds.get(p.source)));
  }
}
