/**
 * The workflow side of live progress, for every pipeline: the progress an activity signals (activities/progress.ts)
 * answers the workflow's progress query and is shown in the run's current details (Temporal UI), as
 * `**phase** · item · files read: 3 · pages parsed: 2 · 5/10`.
 */
import { setCurrentDetails, setHandler, type QueryDefinition, type SignalDefinition } from '@temporalio/workflow';
import type { Progress } from '../src/temporal/contract/index.js';

/** `filesRead` → `files read`. */
function words(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The progress as one line of Markdown: phase, item, named counts in the order they were first reported, loaded/total. */
export function describeProgress(p: Progress): string {
  const parts = [`**${p.phase}**`];
  if (p.item) parts.push(`\`${p.item}\``);
  for (const [name, value] of Object.entries(p)) {
    if (name === 'phase' || name === 'item' || name === 'loaded' || name === 'total' || typeof value !== 'number') continue;
    parts.push(`${words(name)}: ${value}`);
  }
  if (p.total) parts.push(`${p.loaded ?? 0}/${p.total}`);
  return parts.join(' · ');
}

/**
 * Installs the handlers: the signal keeps the latest progress and updates the current details; the query answers it.
 * `settle(p)` keeps the final progress an activity returned (no signal for it), for the query.
 */
export function trackProgress<P extends Progress>(
  signal: SignalDefinition<[P]>,
  query: QueryDefinition<P | null>,
): { readonly current: P | null; settle(p: P | undefined): void } {
  let current: P | null = null;
  setHandler(signal, (p) => {
    current = p;
    setCurrentDetails(describeProgress(p));
  });
  setHandler(query, () => current);
  return {
    get current() {
      return current;
    },
    settle(p) {
      if (p) current = p;
    },
  };
}
