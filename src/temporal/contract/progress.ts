/**
 * What a long activity reports while it runs, in every pipeline: its phase, named counts, the item it works on,
 * an amount loaded of a total. The activity sends it to its own workflow (activities/progress.ts), which answers
 * a query with it and shows it in the run's current details (workflows/progress.ts).
 */
export interface Progress {
  /** What the activity is doing (`fetching`, `parsing`, `storing`, …). */
  phase: string;
  /** The item being worked on (a path, a URL). */
  item?: string;
  /** Amount done of `total` (objects, bytes) in the current phase. */
  loaded?: number;
  total?: number;
  /** Named counts (`filesRead`, `pagesParsed`, …): every other member. */
  [count: string]: string | number | undefined;
}
