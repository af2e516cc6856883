/**
 * The body of a pool thread: runs the named operation of each message and answers with its result, or with the
 * failure (a stack overflow is reported as such, to be typed as a budget by the pool). An operation that returns a
 * promise (OpenAPI processing fetches its `$ref`s) is awaited. The table of operations is the caller's
 * (`src/parse-threads/thread.ts`): this folder knows none of them.
 */
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { OperationTable } from './pool.js';
import type { TaskReply, TaskRequest } from './protocol.js';
import { collectTransfers, takeTransfers } from './transfer.js';

/** Serves `operations` in this thread; loads the families the pool asks for (`preload`) before it says it is ready. */
export async function serveOperations(operations: OperationTable, preload: Record<string, () => Promise<void>>): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('parse-pool thread started outside a worker thread');
  /** What the pool says of this thread: the families to load before it is ready. */
  const data = (workerData ?? {}) as { preload?: string[] };
  port.on('message', (req: TaskRequest) => void answer(port, operations, req));
  for (const family of data.preload ?? []) {
    const load = preload[family];
    if (!load) throw new Error(`unknown family to preload: ${family}`);
    await load();
  }
  port.postMessage({ ready: true, ...threadId() });
}

/** Runs one task (awaiting an operation that returns a promise) and posts its reply. */
async function answer(port: NonNullable<typeof parentPort>, operations: OperationTable, req: TaskRequest): Promise<void> {
  let reply: TaskReply;
  collectTransfers();
  try {
    const op = Object.hasOwn(operations, req.op) ? (operations[req.op] as (...args: unknown[]) => unknown) : undefined;
    if (!op) throw new Error(`unknown operation ${req.op}`);
    reply = { id: req.id, ok: true, value: await op(...req.args) };
  } catch (err) {
    const e = err as Error;
    const stack = e instanceof RangeError && /call stack/i.test(e.message);
    reply = {
      id: req.id,
      ok: false,
      stackOverflow: stack,
      name: e?.name ?? 'Error',
      message: String(e?.message ?? err),
      code: (e as { code?: unknown })?.code as string | undefined,
    };
  }
  // A result's large buffers are moved, not copied (./transfer.ts); none on a failure.
  const transfer = takeTransfers();
  try {
    port.postMessage(reply, reply.ok ? transfer : []);
  } catch {
    port.postMessage(reply); // a buffer that cannot be moved: copied, as any other result
  }
}

/** This thread's id in the kernel (Linux: `/proc/thread-self` is `<pid>/task/<tid>`), for the pool to read its CPU time. */
function threadId(): { tid?: number } {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? { tid } : {};
  } catch {
    return {};
  }
}
