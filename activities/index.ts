import type { ActivityDeps } from './deps.js';
import { createSpaceActivities } from './spaces.js';
import { createPurgeActivities } from './purge.js';
import { createGitSyncActivities } from './git-sync.js';
import { createOpenApiActivities } from './openapi.js';

export type { ActivityDeps } from './deps.js';

/** All of Folio's activities, bound to their dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSpaceActivities(deps),
    ...createPurgeActivities(deps),
    ...createGitSyncActivities(deps),
    ...createOpenApiActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
