import type { Logger } from '../log.js';
import { CONFIG_VARIABLES, TEST_VARIABLES } from './variables.js';

const KNOWN: ReadonlySet<string> = new Set([...CONFIG_VARIABLES, ...TEST_VARIABLES]);

export interface UnknownVariable {
  name: string;
  /** The closest known name, when it is close enough to be a likely typo. */
  suggestion: string | undefined;
}

/** Edit distance (insertions, deletions, substitutions) between two names. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

function closest(name: string): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const known of KNOWN) {
    const d = distance(name, known);
    if (!best || d < best.d) best = { name: known, d };
  }
  // A typo changes a few characters; further away, a suggestion would mislead.
  return best && best.d <= Math.max(2, Math.floor(name.length / 4)) ? best.name : undefined;
}

/** The `FOLIO_*` variables of `env` that Folio does not read, each with the closest known name. */
export function unknownFolioVariables(env: NodeJS.ProcessEnv): UnknownVariable[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('FOLIO_') && !KNOWN.has(name))
    .sort()
    .map((name) => ({ name, suggestion: closest(name) }));
}

/** Logs one warning per unknown `FOLIO_*` variable (run once at start: `folio start`, `folio worker`, `folio api`). */
export function warnUnknownVariables(logger: Logger, env: NodeJS.ProcessEnv = process.env): UnknownVariable[] {
  const unknown = unknownFolioVariables(env);
  for (const { name, suggestion } of unknown) {
    logger.warn({ variable: name, suggestion }, `unknown environment variable ${name} is ignored${suggestion ? ` (did you mean ${suggestion}?)` : ''}`);
  }
  return unknown;
}
