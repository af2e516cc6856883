/** Messages between the parse pool and its threads. */
export interface TaskRequest {
  id: number;
  op: string;
  args: unknown[];
}

export type TaskReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; stackOverflow: boolean; name: string; message: string; code: string | undefined };

export interface ReadyMessage {
  ready: true;
  /** The thread's kernel id (Linux), when it could be read: the pool reads its CPU time by it. */
  tid?: number;
}
