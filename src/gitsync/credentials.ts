/**
 * Git credentials in the secret vault: sealed as `{"u","p"}` (the form of the entries written before the vault
 * was neutral, so entries in flight across an upgrade still open).
 */
import type { SecretVault } from '../vault/index.js';
import type { GitCredentialsInput } from './request.js';

export function putGitCredentials(vault: SecretVault, spaceId: string, credentials: GitCredentialsInput): Promise<string> {
  return vault.put(spaceId, JSON.stringify({ u: credentials.username, p: credentials.password }));
}

/** The credentials, or null when unknown, expired or given for another space. */
export async function getGitCredentials(vault: SecretVault, id: string, spaceId: string): Promise<GitCredentialsInput | null> {
  const secret = await vault.get(id, spaceId);
  if (secret === null) return null;
  const parsed = JSON.parse(secret) as { u: string; p: string };
  return { username: parsed.u, password: parsed.p };
}
