import { ApplicationFailure, ParentClosePolicy, executeChild, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { searchAttributes, workflowIds, type ApplyTemplateInput, type ApplyTemplateResult } from '../src/temporal/contract/index.js';
import { classifyFailure } from './failure.js';
import { processOpenApiSpecWorkflow } from './openapi.js';
import { startSearchIndexChild } from './search-index-start.js';

const { templateBuild, templatePublish, templateCreateSpec } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '30 seconds',
    maximumAttempts: 10,
    nonRetryableErrorTypes: ['NOT_FOUND', 'VALIDATION', 'CONFLICT', 'TEMPLATE_INVALID'],
  },
});

/** Builds tried against a base that keeps moving before the request gives up with CONFLICT. */
const MAX_BUILDS = 3;

/**
 * `space/<spaceId>/template/<key>`: merges the template into the space's content (or a change request's) as a new
 * revision and publishes it by compare-and-set (`src/templates/apply.ts`); when the content moved meanwhile, it builds
 * again on the new content. Then creates the template's OpenAPI spec, if any, and processes it as
 * `openapi/<specId>/process/<n>`: a spec that fails to process leaves the pages applied and reports its code.
 * Only ids travel through the history; the content is in the store.
 */
export async function applyTemplateWorkflow(input: ApplyTemplateInput): Promise<ApplyTemplateResult> {
  if (!input?.spaceId || !input.templateId || !input.requestKey)
    throw ApplicationFailure.nonRetryable('spaceId, templateId and requestKey are required', 'BAD_INPUT');
  let revisionId = '';
  let addedPages = 0;
  let alreadyApplied = false;
  for (let attempt = 1; ; attempt++) {
    const idempotencyKey = attempt === 1 ? `template:${input.requestKey}` : `template:${input.requestKey}:${attempt}`;
    const built = await templateBuild({ ...input, idempotencyKey });
    const outcome = await templatePublish({ ...input, revisionId: built.revisionId, baseRevisionId: built.baseRevisionId });
    if (outcome !== 'conflict') {
      revisionId = built.revisionId;
      alreadyApplied = outcome === 'already-published';
      addedPages = alreadyApplied ? 0 : built.addedPages;
      break;
    }
    if (attempt >= MAX_BUILDS)
      throw ApplicationFailure.nonRetryable(`the content of space ${input.spaceId} kept changing while the template was applied`, 'CONFLICT');
  }
  const result: ApplyTemplateResult = { revisionId, addedPages, alreadyApplied };
  // The space's primary content changed: its search index follows (a detached run; a failure there never fails this one).
  if (!input.changeRequestId && !alreadyApplied) await startSearchIndexChild({ spaceId: input.spaceId, organizationId: input.organizationId, revisionId });
  const spec = await templateCreateSpec(input);
  if (spec) {
    if (!spec.created || spec.run === undefined) {
      result.openAPISpec = { slug: spec.slug, specId: spec.specId, status: 'existing' };
    } else {
      try {
        const processed = await executeChild(processOpenApiSpecWorkflow, {
          workflowId: workflowIds.openapiProcess(spec.specId, spec.run),
          args: [
            {
              specId: spec.specId,
              organizationId: input.organizationId,
              run: spec.run,
              trigger: 'create',
              processTimeoutMs: spec.processTimeoutMs,
              pauseScheduleAfterFailures: spec.pauseScheduleAfterFailures,
            },
          ],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          typedSearchAttributes: searchAttributes({ specId: spec.specId, organizationId: input.organizationId, operation: 'openapi-process' }),
          staticSummary: `Process OpenAPI spec ${spec.slug} (${spec.specId}) of template ${input.templateId}, run ${spec.run}`,
          workflowExecutionTimeout: '1 hour',
        });
        result.openAPISpec =
          processed.outcome === 'failed'
            ? { slug: spec.slug, specId: spec.specId, status: 'failed', code: processed.code }
            : { slug: spec.slug, specId: spec.specId, status: 'processed' };
      } catch (err) {
        const f = classifyFailure(err);
        result.openAPISpec = {
          slug: spec.slug,
          specId: spec.specId,
          status: 'failed',
          code: f.kind === 'application' ? (f.type ?? 'PROCESS_FAILED') : 'PROCESS_FAILED',
        };
      }
    }
  }
  return result;
}
