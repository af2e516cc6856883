/**
 * OpenAPI processing as a parse-pool operation (`openapi.process`): runs {@link processSpec} inside a pool
 * thread, with the fetch guard's policy given as plain data and rebuilt here, so every fetch of the thread (the
 * root document and each external `$ref`) is still checked by the guard.
 */
import { fetchPolicyFromConfig } from '../net/policy.js';
import type { SafeFetchOptions } from './fetch.js';
import { processSpec, type ProcessSpecOptions, type ProcessSpecResult, type SpecSource } from './process.js';

/** The fetch guard's policy as structured-cloneable data (FETCH_DENY_PRIVATE_NETWORKS, FETCH_ALLOW_HOSTS). */
export interface PlainFetchPolicy {
  denyPrivateNetworks: boolean;
  allowHosts: string[];
}

/** {@link ProcessSpecOptions} that can cross to a thread: no signal (the pool cancels by ending the thread). */
export interface ThreadProcessSpecOptions extends Omit<ProcessSpecOptions, 'fetch' | 'signal'> {
  fetch: Omit<SafeFetchOptions, 'signal' | 'policy'> & { policy: PlainFetchPolicy };
}

export async function processSpecInThread(source: SpecSource, options: ThreadProcessSpecOptions): Promise<ProcessSpecResult> {
  const { policy, ...fetch } = options.fetch;
  return await processSpec(source, {
    ...options,
    fetch: { ...fetch, policy: fetchPolicyFromConfig({ fetchDenyPrivateNetworks: policy.denyPrivateNetworks, fetchAllowHosts: policy.allowHosts }) },
  });
}
