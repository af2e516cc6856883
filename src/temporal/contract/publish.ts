/**
 * `site/<siteId>/publish`: one publish workflow per site at a time. A publish request signals-with-start it;
 * requests arriving during a run are coalesced into one more run, so the site ends on the newest content.
 */
export interface PublishSiteInput {
  organizationId: string;
  siteId: string;
  /** What asked for the first run (default: a request through the API). */
  trigger?: PublishTrigger;
}

/** What asked for a publish run: the API, or a new primary revision of one of the site's spaces. */
export type PublishTrigger = { kind: 'request' } | { kind: 'new-revision'; spaceId: string; revisionId: string };

export interface PublishSiteRunResult {
  publicationId: string;
  rendered: number;
  reused: number;
  files: number;
  warningCount: number;
  warningCodes: string[];
}

export interface PublishSiteResult {
  /** Runs done by this workflow (one per batch of coalesced requests). */
  runs: number;
  last: PublishSiteRunResult | null;
}

export const publishSignals = {
  /** Publish again once the current run ends; its argument (optional): the PublishTrigger. */
  request: 'publishRequested',
} as const;

export const publishQueries = {
  /** PublishSiteRunResult | null: the outcome of the last run. */
  last: 'publishLast',
} as const;

export function publishWorkflowId(siteId: string): string {
  return `site/${siteId}/publish`;
}
