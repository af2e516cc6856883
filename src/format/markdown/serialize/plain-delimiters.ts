import type { State } from 'mdast-util-to-markdown';
import type { Text } from 'mdast';
import { DELIMITERS, type PlainDelimitersData } from '../style/plain-delimiters.js';
import { verifiedCandidate } from './verified-candidate.js';

const candidate = verifiedCandidate('plainDelimiters');

/**
 * Run a phrasing serializer (paragraph, heading, table cell) with recorded plain delimiters allowed;
 * where writing them plain would not re-parse like the escaped serialization, the escaped one wins.
 */
export const verifyPlainDelimiters = (state: State, tree: (markdown: string) => string, run: () => string): string => candidate.verify(state, tree, run);

/** Whether a GitBook spelling other than a plain delimiter (serialize/strong.ts) may be tried in this verified container. */
export const gitbookSpellingAllowed = (state: State): boolean => candidate.allowed(state);

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const IS_DELIMITER = /^[*_`[]$/;

/**
 * The serialization `out` of a text node with the `*`/`_`/`` ` ``/`[` characters its source wrote plain
 * (GitBook's own marks, see style/plain-delimiters.ts) written without their backslash. Nothing changes
 * when `out` does not line up with the node's value (an edited text) or outside a verified container.
 */
export function writePlainDelimiters(out: string, node: Text, state: State): string {
  const at = (node.data as PlainDelimitersData | undefined)?.plainDelimiters;
  if (!at || at.length === 0) return out;
  const plain = new Set(at);
  const total = node.value.match(DELIMITERS)?.length ?? 0;
  let k = 0;
  let res = '';
  let changed = false;
  for (let i = 0; i < out.length; i++) {
    const c = out[i]!;
    const next = out[i + 1] ?? '';
    if (c === '\\' && ASCII_PUNCTUATION.test(next)) {
      if (IS_DELIMITER.test(next)) {
        if (plain.has(k)) {
          res += next;
          changed = true;
        } else res += c + next;
        k++;
      } else res += c + next;
      i++;
      continue;
    }
    if (c === '&') {
      const ref = /^&#(?:[xX]([0-9a-fA-F]{1,6})|(\d{1,7}));/.exec(out.slice(i, i + 12));
      if (ref) {
        const cp = ref[1] !== undefined ? parseInt(ref[1], 16) : Number(ref[2]);
        if (cp === 0x2a || cp === 0x5f || cp === 0x60 || cp === 0x5b) k++;
        res += ref[0];
        i += ref[0].length - 1;
        continue;
      }
    }
    if (IS_DELIMITER.test(c)) k++;
    res += c;
  }
  if (!changed || k !== total || !candidate.allowed(state)) return out;
  return res;
}
