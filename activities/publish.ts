import { ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
import { publishSite } from '../src/publish/build.js';
import type { PublishSiteRunResult } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { parsePoolOf } from './parse-pool.js';

/** The activity of `site/<id>/publish`: one publish run (src/publish/build.ts). */
export function createPublishActivities(deps: ActivityDeps) {
  return {
    /**
     * Renders what changed and switches the site to the new publication. Idempotent: the publication is keyed
     * by the workflow run and its run number, so a retried attempt stores nothing twice. Heartbeats per page.
     */
    async publishSiteActivity(input: { organizationId: string; siteId: string; run: number }): Promise<PublishSiteRunResult> {
      const info = Context.current().info;
      const outcome = await publishSite(
        {
          store: deps.store,
          render: (page) => parsePoolOf(deps).run('publish.render', page),
          logger: deps.logger,
          progress: (done, total) => heartbeat({ done, total }),
          publicUrl: deps.config.publicUrl,
          hostnames: deps.config.siteHostnames,
        },
        { organizationId: input.organizationId, siteId: input.siteId, requestKey: `${info.workflowExecution?.runId ?? info.activityId}/${input.run}` },
      );
      if (!outcome) throw ApplicationFailure.nonRetryable(`site not found: ${input.siteId}`, 'NOT_FOUND');
      return {
        publicationId: outcome.publicationId,
        rendered: outcome.rendered,
        reused: outcome.reused,
        files: outcome.files,
        warningCount: outcome.warningCount,
        warningCodes: [...new Set(outcome.warnings.map((w) => w.code))],
      };
    },
  };
}
