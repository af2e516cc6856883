import { ParentClosePolicy, startChild } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { searchAttributes, searchIndexWorkflowId, workflowTypes, type SearchIndexInput, type SearchIndexWorkflow } from '../src/temporal/contract/index.js';

/**
 * Starts the search indexing of a new primary revision as a child that outlives its parent (a failed or slow
 * indexing never fails the run that changed the content). The same revision twice starts one run.
 */
export async function startSearchIndexChild(input: SearchIndexInput): Promise<void> {
  try {
    await startChild<SearchIndexWorkflow>(workflowTypes.searchIndex, {
      workflowId: searchIndexWorkflowId(input.spaceId, input.revisionId),
      args: [input],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: searchAttributes({ spaceId: input.spaceId, organizationId: input.organizationId, operation: 'search-index' }),
      memo: { spaceId: input.spaceId, organizationId: input.organizationId, revisionId: input.revisionId },
      staticSummary: `Search index of space ${input.spaceId} at revision ${input.revisionId}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
