import type { ActivityDeps } from './deps.js';
import { runningActivityLogger, withActivityLoggers } from './activity-logger.js';
import { createSpaceActivities } from './spaces.js';
import { createPurgeActivities } from './purge.js';
import { createGitSyncActivities } from './git-sync.js';
import { createOpenApiActivities } from './openapi.js';
import { createPublishActivities } from './publish.js';

export type { ActivityDeps } from './deps.js';

/**
 * All of Folio's activities, bound to their dependencies. Each runs inside its own child logger (workflow id, run
 * id, activity, attempt, organization, space), which is what `deps.logger` writes through during the call.
 */
export function createActivities(deps: ActivityDeps) {
  const scoped: ActivityDeps = { ...deps, logger: runningActivityLogger(deps.logger) };
  return withActivityLoggers(deps.logger, {
    ...createSpaceActivities(scoped),
    ...createPurgeActivities(scoped),
    ...createGitSyncActivities(scoped),
    ...createOpenApiActivities(scoped),
    ...createPublishActivities(scoped),
  });
}

export type Activities = ReturnType<typeof createActivities>;
