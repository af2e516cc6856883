/** 1-based numbers of the lines that differ between two texts (compared line by line, by position). */
export function changedLines(a: string, b: string): number[] {
  const la = a.split('\n');
  const lb = b.split('\n');
  const out: number[] = [];
  for (let i = 0; i < Math.max(la.length, lb.length); i++) if (la[i] !== lb[i]) out.push(i + 1);
  return out;
}
