/**
 * Large results moved from a parse-pool thread instead of copied: an operation that returns big buffers (the
 * entries of an unpacked archive) names their ArrayBuffers here, and the thread posts its reply with them in the
 * transfer list. Structured cloning would copy each one twice (into the message, then out of it), so a 256 MiB
 * archive would briefly weigh 750 MiB; moved, it weighs what it is. Only buffers the operation made for its result
 * and holds nowhere else may be named (a transferred buffer is gone from the thread). Outside a pool thread (an
 * operation called in-process, as tests do) naming is a no-op.
 */

let collecting: Set<ArrayBuffer> | null = null;

/** Called by the thread before each task: from now on, named buffers are kept for its reply. */
export function collectTransfers(): void {
  collecting = new Set();
}

/** Names buffers of the running task's result that may be moved with its reply (ignored outside a pool thread). */
export function transferWithReply(buffers: Iterable<ArrayBufferLike>): void {
  if (!collecting) return;
  for (const buffer of buffers) if (buffer instanceof ArrayBuffer) collecting.add(buffer);
}

/** The buffers named during the task that just ended (the thread then stops collecting until the next one). */
export function takeTransfers(): ArrayBuffer[] {
  const taken = collecting ? [...collecting] : [];
  collecting = null;
  return taken;
}
