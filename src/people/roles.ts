/**
 * The member roles of the platform (the official `MemberRole`), weakest first: a role can do everything the roles
 * before it can. `null` is a guest's organization role, or no access at all to a piece of content.
 */
import type { MemberRole } from '../store/index.js';

export type { MemberRole } from '../store/index.js';

/** Weakest first: read < comment < edit < review < create < admin (GitBook's Reader … Admin). */
export const ROLE_ORDER: readonly MemberRole[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

/** 0 for null (no access / guest), 1 for read … 6 for admin. */
export function rank(role: MemberRole | null | undefined): number {
  return role ? ROLE_ORDER.indexOf(role) + 1 : 0;
}

/** Whether `role` allows what `needed` allows. */
export function atLeast(role: MemberRole | null | undefined, needed: MemberRole): boolean {
  return rank(role) >= rank(needed);
}

/** The most permissive of the roles (null when none gives access). */
export function highest(...roles: ReadonlyArray<MemberRole | null | undefined>): MemberRole | null {
  let best: MemberRole | null = null;
  for (const role of roles) if (rank(role) > rank(best)) best = role!;
  return best;
}

/** The least permissive of two roles. */
export function lowest(a: MemberRole | null, b: MemberRole | null): MemberRole | null {
  return rank(a) <= rank(b) ? a : b;
}

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === 'string' && (ROLE_ORDER as readonly string[]).includes(value);
}
