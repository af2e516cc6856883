import type { GitOperationResult, GitSyncRequest } from '../src/temporal/contract/index.js';
import { runGitOperation } from './git-operation.js';

/** `space/<spaceId>/git-export/<requestId>`: commits the space's primary content and pushes it (never forced). */
export async function gitExportWorkflow(request: GitSyncRequest): Promise<GitOperationResult> {
  return runGitOperation(request, 'gitExportActivity');
}
