/**
 * The converter's warnings as an operation reports them (workflow result, `git/info`, the run's details in the
 * Temporal UI): small and bounded, since they travel in Temporal payloads. Every code is counted; the first
 * MAX_REPORTED warnings are kept, those that lost or kept content aside (`error` severity) first.
 */
import type { FormatWarning } from '../format/index.js';
import { redact } from '../redact.js';
import type { GitOperationWarning, GitWarningReport } from '../temporal/contract/index.js';

export const MAX_REPORTED_WARNINGS = 50;
const MAX_MESSAGE = 500;
const RANK = { error: 0, warning: 1, info: 2 } as const;

export function reportWarnings(warnings: readonly FormatWarning[], max = MAX_REPORTED_WARNINGS): GitWarningReport {
  const counts: Record<string, number> = {};
  for (const w of warnings) counts[w.code] = (counts[w.code] ?? 0) + 1;
  const ordered = warnings.map((w, i) => ({ w, i })).sort((a, b) => RANK[a.w.severity] - RANK[b.w.severity] || a.i - b.i);
  const kept: GitOperationWarning[] = ordered.slice(0, max).map(({ w }) => {
    const message = redact(w.message);
    return {
      code: w.code,
      severity: w.severity,
      message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message,
      ...(w.path !== undefined ? { path: w.path } : {}),
    };
  });
  return { total: warnings.length, counts, warnings: kept };
}

/**
 * One line for the request log and the run's result detail: how many warnings, and the paths of the files whose
 * content was kept aside (error severity), by code — e.g. `2 warnings; FORMAT_PAGE_TOO_COMPLEX: a.md, b.md`.
 */
export function describeWarnings(report: GitWarningReport, maxPaths = 20): string {
  const byCode = new Map<string, string[]>();
  for (const w of report.warnings) {
    if (w.severity !== 'error' || w.path === undefined) continue;
    byCode.set(w.code, [...(byCode.get(w.code) ?? []), w.path]);
  }
  const parts = [...byCode].map(
    ([code, paths]) => `${code}: ${paths.slice(0, maxPaths).join(', ')}${paths.length > maxPaths || (report.counts[code] ?? 0) > paths.length ? ', …' : ''}`,
  );
  return `${report.total} warning${report.total === 1 ? '' : 's'}${parts.length ? `; ${parts.join('; ')}` : ''}`;
}
