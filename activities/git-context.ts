/** What the git activities share: the dependencies, the git cache root and the credential vault. */
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import { createVault, vaultKey, type CredentialVault } from '../src/gitsync/vault.js';
import type { GitSyncRequest } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';

export interface GitSyncContext extends ActivityDeps {
  vault(): CredentialVault;
  cacheRoot: string;
}

export function gitSyncContext(deps: ActivityDeps): GitSyncContext {
  let vault: CredentialVault | undefined;
  return {
    ...deps,
    cacheRoot: path.join(deps.config.dataDir, 'git-cache'),
    vault() {
      vault ??= createVault(deps.store.sql, vaultKey({ dataDir: deps.config.dataDir }));
      return vault;
    },
  };
}

/** The credentials a request refers to: none, or the vault's (a missing entry is a typed failure). */
export async function credentialsOf(ctx: GitSyncContext, request: GitSyncRequest): Promise<{ username: string; password: string } | undefined> {
  if (!request.credentialId) return undefined;
  const creds = await ctx.vault().get(request.credentialId);
  if (!creds) throw ApplicationFailure.create({ type: 'CREDENTIALS_MISSING', message: 'the credentials of this request expired or were removed; send the request again', nonRetryable: true });
  return creds;
}
