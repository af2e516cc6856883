import type { Processor } from 'unified';
import remarkMath from 'remark-math';

/**
 * KaTeX math as GitBook writes it: block `$$` lines around TeX, inline `$$x$$` (double dollars
 * only — a single `$` is plain text, as in prices).
 */
export function remarkGitbookMath(this: Processor): void {
  remarkMath.call(this, { singleDollarTextMath: false });
}
