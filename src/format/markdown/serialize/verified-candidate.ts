import type { State } from 'mdast-util-to-markdown';

type Mode = { used: boolean } | 'off';

/**
 * A spelling the serializer may use only where it does not change the meaning: handlers ask
 * `allowed(state)` (which records the use), and a phrasing container serialized through `verify`
 * keeps the result only when it re-parses (`tree`) like the serialization without that spelling.
 */
export interface VerifiedCandidate {
  allowed(state: State): boolean;
  verify(state: State, tree: (markdown: string) => string, run: () => string): string;
}

export function verifiedCandidate(name: string): VerifiedCandidate {
  const key = Symbol(name);
  type Marked = State & { [key]?: Mode };
  return {
    allowed(state) {
      const mode = (state as Marked)[key];
      if (mode === undefined || mode === 'off') return false;
      mode.used = true;
      return true;
    },
    verify(state, tree, run) {
      const s = state as Marked;
      if (s[key] !== undefined) return run();
      const mode: Mode = { used: false };
      s[key] = mode;
      let candidate: string;
      try {
        candidate = run();
      } finally {
        delete s[key];
      }
      if (!mode.used) return candidate;
      s[key] = 'off';
      let plain: string;
      try {
        plain = run();
      } finally {
        delete s[key];
      }
      return candidate === plain || tree(candidate) === tree(plain) ? candidate : plain;
    },
  };
}
