import { ValidationError } from '../errors.js';
import type { ChangeRequestStatus } from '../store/index.js';

/**
 * The moves between a change request's statuses (the official values `draft`, `open`, `archived`, `merged`):
 * - `draft` ⇄ `open` (ready for review, or back to work), either → `archived` (closed without merging), `archived`
 *   → `open` or `draft` (reopened); a status to itself changes nothing;
 * - only an `open` change request is merged (`merged` is reached by `POST …/merge`, never by PATCH) and `merged` is
 *   final: nothing moves out of it;
 * - `update` (bringing it up to date) and content edits need it not merged and not archived.
 */
export const STATUS_MOVES: Readonly<Record<ChangeRequestStatus, readonly ChangeRequestStatus[]>> = {
  draft: ['draft', 'open', 'archived'],
  open: ['open', 'draft', 'archived'],
  archived: ['archived', 'open', 'draft'],
  merged: [],
};

/** Throws a ValidationError naming the move when `from` → `to` is not allowed. */
export function assertStatusMove(number: number, from: ChangeRequestStatus, to: ChangeRequestStatus): void {
  if (STATUS_MOVES[from].includes(to)) return;
  const allowed = STATUS_MOVES[from].filter((s) => s !== from);
  throw new ValidationError(
    `change request ${number} cannot move from "${from}" to "${to}"` +
      (allowed.length ? ` (from "${from}" it may move to ${allowed.map((s) => `"${s}"`).join(', ')})` : ` ("${from}" is final)`),
    { from, to },
  );
}

/** Throws a ValidationError unless the change request may be merged (it is `open`; a merged one answers its merge). */
export function assertMergeable(number: number, status: ChangeRequestStatus): void {
  if (status === 'open' || status === 'merged') return;
  throw new ValidationError(
    status === 'draft'
      ? `change request ${number} is a draft; mark it ready (status "open") before merging`
      : `change request ${number} is archived; reopen it (status "open") before merging`,
    { status },
  );
}

/** Throws a ValidationError unless the change request's content may change (edits, update): not merged, not archived. */
export function assertEditable(number: number, status: ChangeRequestStatus): void {
  if (status === 'merged') throw new ValidationError(`change request ${number} is already merged`, { status });
  if (status === 'archived') throw new ValidationError(`change request ${number} is archived; reopen it (status "open" or "draft") first`, { status });
}
