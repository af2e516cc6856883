import { ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
import { publishSite } from '../src/publish/build.js';
import type { SitePublishState } from '../src/store/index.js';
import type { PublishSiteRunResult, PublishTrigger } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { parsePoolOf } from './parse-pool.js';

type RunInput = { organizationId: string; siteId: string; run: number; trigger?: PublishTrigger };

/** The activities of `site/<id>/publish`: one publish run (src/publish/build.ts) and its failure's record. */
export function createPublishActivities(deps: ActivityDeps) {
  return {
    /**
     * Renders what changed and switches the site to the new publication. Idempotent: the publication is keyed
     * by the workflow run and its run number, so a retried attempt stores nothing twice. Heartbeats per page; the
     * site's publish state (status, progress, warnings) is written as it goes, progress at most every 2 seconds.
     */
    async publishSiteActivity(input: RunInput): Promise<PublishSiteRunResult> {
      return publishSiteRun(deps, input);
    },
    /** The published sites that publish on a new primary revision of the space (`publishOnNewRevision`). */
    async sitesPublishingOnNewRevision(input: { spaceId: string }): Promise<Array<{ id: string; organizationId: string }>> {
      return deps.store.sites.publishingOnNewRevision(input.spaceId);
    },
    /** Records a failed publish run as the site's publish state. */
    async publishSiteFailedActivity(input: RunInput & { code: string; message: string }): Promise<void> {
      const site = await deps.store.sites.get(input.organizationId, input.siteId);
      if (!site) return;
      const before = site.publishState;
      await deps.store.sites.setPublishState(input.siteId, {
        status: 'failed',
        trigger: input.trigger ?? { kind: 'request' },
        progress: before?.status === 'running' ? before.progress : null,
        warningCount: 0,
        warnings: [],
        error: { code: input.code, message: input.message.slice(0, 2000) },
        publicationId: null,
        startedAt: before?.status === 'running' ? before.startedAt : new Date().toISOString(),
        finishedAt: new Date().toISOString(),
      });
    },
  };
}

/** One publish run and the site's publish state around it (see `publishSiteActivity`). */
async function publishSiteRun(deps: ActivityDeps, input: RunInput): Promise<PublishSiteRunResult> {
  const info = Context.current().info;
  const state: SitePublishState = {
    status: 'running',
    trigger: input.trigger ?? { kind: 'request' },
    progress: null,
    warningCount: 0,
    warnings: [],
    error: null,
    publicationId: null,
    startedAt: new Date().toISOString(),
    finishedAt: null,
  };
  await deps.store.sites.setPublishState(input.siteId, state);
  let written = Date.now();
  let writing = Promise.resolve();
  const outcome = await publishSite(
    {
      store: deps.store,
      render: (page) => parsePoolOf(deps).run('publish.render', page),
      concurrency: parsePoolOf(deps).threads * 2,
      logger: deps.logger,
      progress: (done, total) => {
        heartbeat({ done, total });
        if (Date.now() - written < 2000) return;
        written = Date.now();
        const progress = { done, total };
        writing = writing.then(() => deps.store.sites.setPublishState(input.siteId, { ...state, progress })).catch(() => {});
      },
      publicUrl: deps.config.publicUrl,
      hostnames: deps.config.siteHostnames,
    },
    { organizationId: input.organizationId, siteId: input.siteId, requestKey: `${info.workflowExecution?.runId ?? info.activityId}/${input.run}` },
  );
  await writing;
  if (!outcome) throw ApplicationFailure.nonRetryable(`site not found: ${input.siteId}`, 'NOT_FOUND');
  await deps.store.sites.setPublishState(input.siteId, {
    ...state,
    status: 'succeeded',
    progress: { done: outcome.rendered + outcome.reused, total: outcome.rendered + outcome.reused },
    warningCount: outcome.warningCount,
    warnings: outcome.warnings.map((w) => ({ code: w.code, message: w.message, ...(w.path !== undefined ? { path: w.path } : {}) })),
    publicationId: outcome.publicationId,
    finishedAt: new Date().toISOString(),
  });
  return {
    publicationId: outcome.publicationId,
    rendered: outcome.rendered,
    reused: outcome.reused,
    files: outcome.files,
    warningCount: outcome.warningCount,
    warningCodes: [...new Set(outcome.warnings.map((w) => w.code))],
  };
}
