import { TooManyPagesError } from '../errors.js';
import type { ImportContext } from './context.js';

/** Phase "limits": the page limit counts document pages (not links, groups or computed entries); nothing has been read yet. */
export function checkPageLimit(ctx: Pick<ImportContext, 'loads' | 'limits'>): void {
  if (ctx.loads.length > ctx.limits.maxPages) throw new TooManyPagesError(ctx.loads.length, ctx.limits.maxPages);
}
