import type { GitOperationResult, GitSyncRequest } from '../src/temporal/contract/index.js';
import { runGitOperation } from './git-operation.js';

/** `space/<spaceId>/git-import/<requestId>`: imports one commit of the repository into the space. */
export async function gitImportWorkflow(request: GitSyncRequest): Promise<GitOperationResult> {
  return runGitOperation(request, 'gitImportActivity');
}
