import { describe, expect, it } from 'vitest';
import { lcsLength, similarity } from '../helpers/import-fidelity.js';

/** The quadratic table: the longest common subsequence by definition. */
function byTable(a: string[], b: string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    previous = row;
  }
  return previous[b.length]!;
}

/** A small deterministic generator (the cases are the same on every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('the word similarity of the website-import fidelity measure', () => {
  it('computes the same LCS length as the quadratic table, on unrelated and on near-identical word lists', () => {
    const next = random(7);
    for (let t = 0; t < 3000; t++) {
      const alphabet = 1 + Math.floor(next() * 6);
      const words = (n: number) => Array.from({ length: n }, () => `w${Math.floor(next() * alphabet)}`);
      const a = words(Math.floor(next() * 40));
      const b = t % 2 === 0 ? words(Math.floor(next() * 40)) : [...a.filter(() => next() < 0.9), ...words(Math.floor(next() * 4))];
      expect(lcsLength(a, b), `${a.join(' ')} | ${b.join(' ')}`).toBe(byTable(a, b));
    }
  });

  it('is 1 for the same words, 0 for no common word, 2·LCS / (|a| + |b|) otherwise', () => {
    expect(similarity([], [])).toBe(1);
    expect(similarity(['a', 'b'], ['a', 'b'])).toBe(1);
    expect(similarity(['a'], ['b'])).toBe(0);
    expect(similarity(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toBe(6 / 9);
  });
});
