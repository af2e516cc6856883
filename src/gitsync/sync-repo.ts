import type { GitSyncRepo } from '../store/index.js';
import type { GitSyncRequest } from '../temporal/contract/index.js';

/** The repository a git request names, as the space's sync state keeps it for git/info (no credentials in `url`). */
export function syncRepoOf(request: Pick<GitSyncRequest, 'url' | 'ref' | 'projectDirectory' | 'repoTreeURL' | 'repoCommitURL' | 'gitInfo'>): GitSyncRepo {
  return {
    url: request.url,
    ref: request.ref,
    ...(request.projectDirectory ? { projectDirectory: request.projectDirectory } : {}),
    ...(request.repoTreeURL ? { treeURL: request.repoTreeURL } : {}),
    ...(request.repoCommitURL ? { commitURL: request.repoCommitURL } : {}),
    ...(request.gitInfo?.provider ? { provider: request.gitInfo.provider } : {}),
    ...(request.gitInfo?.url ? { infoURL: request.gitInfo.url } : {}),
  };
}
