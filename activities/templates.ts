import { ApplicationFailure, heartbeat } from '@temporalio/activity';
import { FolioError } from '../src/errors.js';
import { poolPageCodec } from '../src/parse-threads/page-codec.js';
import { processTimeoutMs, PAUSE_SCHEDULE_AFTER_FAILURES } from '../src/temporal/client/openapi-processing.js';
import { buildTemplateRevision, publishTemplateRevision, type ContentRefs } from '../src/templates/apply.js';
import { createTemplateSpec } from '../src/templates/openapi-spec.js';
import type { ApplyTemplateInput } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { toFailure } from './git-failures.js';
import { parsePoolOf } from './parse-pool.js';

/**
 * Template application (`workflows/apply-template.ts`): build the merged revision (idempotent by the request's
 * key), publish it by compare-and-set, create the template's OpenAPI spec. Failures are typed (NOT_FOUND,
 * VALIDATION, TEMPLATE_INVALID, …); store hiccups are retried.
 */
export function createTemplateActivities(deps: ActivityDeps) {
  const catalog = { templatesDir: deps.config.templatesDir };
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    const beat = setInterval(() => heartbeat(), 5000);
    try {
      return await work();
    } catch (err) {
      // A typed, final failure (no such template, a bad content ref, a closed change request) keeps its code.
      if (err instanceof FolioError && !err.retryable) throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: true });
      throw toFailure(err);
    } finally {
      clearInterval(beat);
    }
  };
  return {
    async templateBuild(input: ApplyTemplateInput & { idempotencyKey: string }) {
      return run(async () => {
        const built = await buildTemplateRevision(
          deps.store,
          { ...input, contentRefs: input.contentRefs as ContentRefs | undefined },
          { ...catalog, codec: poolPageCodec(parsePoolOf(deps)) },
        );
        if (built.warnings.length)
          deps.logger.warn({ templateId: input.templateId, warnings: built.warnings.map((w) => w.code) }, 'template imported with warnings');
        return { revisionId: built.revisionId, baseRevisionId: built.baseRevisionId, addedPages: built.addedPages };
      });
    },
    async templatePublish(input: ApplyTemplateInput & { revisionId: string; baseRevisionId: string | null }) {
      return run(() => publishTemplateRevision(deps.store, input));
    },
    async templateCreateSpec(input: ApplyTemplateInput) {
      return run(async () => {
        const spec = await createTemplateSpec(deps.store, { ...input, contentRefs: input.contentRefs as ContentRefs | undefined }, catalog);
        if (!spec) return null;
        return { ...spec, processTimeoutMs: processTimeoutMs(deps.config), pauseScheduleAfterFailures: PAUSE_SCHEDULE_AFTER_FAILURES };
      });
    },
  };
}
