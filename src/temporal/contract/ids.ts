/** Business-key workflow ids, so operators find runs by what they are about. */
export const workflowIds = {
  createSpace: (spaceId: string) => `space/${spaceId}/create`,
  gitQueue: (spaceId: string) => `space/${spaceId}/git`,
  gitImport: (spaceId: string, requestId: string) => `space/${spaceId}/git-import/${requestId}`,
  gitExport: (spaceId: string, requestId: string) => `space/${spaceId}/git-export/${requestId}`,
  purge: (spaceId: string) => `space/${spaceId}/purge`,
  openapiProcess: (specId: string, n: number | string) => `openapi/${specId}/process/${n}`,
  translationRuns: (translationId: string) => `translation/${translationId}/runs`,
  applyTemplate: (spaceId: string, key: string) => `space/${spaceId}/template/${key}`,
  contentImport: (organizationId: string, runId: string) => `org/${organizationId}/import/${runId}`,
  duplicateSpace: (sourceSpaceId: string, spaceId: string) => `space/${sourceSpaceId}/duplicate/${spaceId}`,
  changeRequestMerge: (spaceId: string, changeRequestId: string, operation: string) => `space/${spaceId}/change-request/${changeRequestId}/${operation}`,
};

/** Id of the schedule that re-processes a URL spec. */
export function refreshScheduleId(specId: string): string {
  return `openapi/${specId}/refresh`;
}

/**
 * Prefix of the ids of the schedule's refresh workflows (Temporal appends the scheduled time). Each numbers
 * the next run and processes it as `openapi/<specId>/process/<n>`.
 */
export function refreshWorkflowId(specId: string): string {
  return `openapi/${specId}/refresh/run`;
}
