import type { ActivityDeps } from './deps.js';
import { runningActivityLogger, withActivityLoggers } from './activity-logger.js';
import { withActivityMetrics } from './metrics.js';
import { createSpaceActivities } from './spaces.js';
import { createPurgeActivities } from './purge.js';
import { createGitSyncActivities } from './git-sync.js';
import { createOpenApiActivities } from './openapi.js';
import { createTranslationActivities } from './translations.js';
import { createTemplateActivities } from './templates.js';
import { createSearchIndexActivities } from './search-index.js';
import { createContentImportActivities } from './content-import.js';
import { createPublishActivities } from './publish.js';
import { createPdfActivities } from './pdf.js';
import { createWebhookActivities } from './webhooks.js';
import { createChangeRequestActivities } from './change-requests.js';

export type { ActivityDeps } from './deps.js';

/**
 * All of Folio's activities, bound to their dependencies. Each runs inside its own child logger (workflow id, run
 * id, activity, attempt, organization, space), which is what `deps.logger` writes through during the call, and
 * records its attempts in `deps.metrics` (./metrics.ts).
 */
export function createActivities(deps: ActivityDeps) {
  const scoped: ActivityDeps = { ...deps, logger: runningActivityLogger(deps.logger) };
  const activities = withActivityLoggers(deps.logger, {
    ...createSpaceActivities(scoped),
    ...createPurgeActivities(scoped),
    ...createGitSyncActivities(scoped),
    ...createOpenApiActivities(scoped),
    ...createTranslationActivities(scoped),
    ...createTemplateActivities(scoped),
    ...createSearchIndexActivities(scoped),
    ...createContentImportActivities(scoped),
    ...createPublishActivities(scoped),
    ...createPdfActivities(scoped),
    ...createWebhookActivities(scoped),
    ...createChangeRequestActivities(scoped),
  });
  return withActivityMetrics(deps.metrics, activities);
}

export type Activities = ReturnType<typeof createActivities>;
