import type { GitOperationResult, GitWarningReport } from '../../temporal/contract/index.js';
import { describeWarnings } from '../warnings.js';
import type { ParsedImport } from './context.js';

/** The answer of an import that stored a revision. */
export function importResult(run: ParsedImport, revisionId: string, filesChanged: number, warnings: GitWarningReport | undefined): GitOperationResult {
  const { request, head, imported, codec, progress } = run;
  return {
    requestId: request.requestId,
    direction: 'import',
    outcome: 'applied',
    commit: head,
    revisionId,
    pagesChanged: imported.stats.parsed,
    filesChanged,
    timingsMs: run.timings.timingsMs,
    parseCache: { hits: codec.stats.hits, decoded: codec.stats.decoded },
    // The final progress, for the workflow's query: returned, not signalled (activities/progress.ts).
    progress: { ...progress.current },
    ...(warnings ? { warnings } : {}),
    detail: `imported ${head.slice(0, 12)}: ${imported.stats.pages} pages (${imported.stats.parsed} parsed${codec.stats.hits ? ` of which ${codec.stats.hits} from the parse cache` : ''}, ${imported.stats.reused} reused), ${imported.stats.files} files${warnings ? `, ${describeWarnings(warnings)}` : ''}`,
  };
}
