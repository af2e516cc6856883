import dns from 'node:dns';
import { HostAllowlist } from './allowlist.js';
import { FetchAddressDeniedError } from './errors.js';
import { isPrivateAddress } from './private-network.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Name resolution used by the guard; injectable so tests can make a public-looking name resolve to 127.0.0.1. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * What the fetch guard lets through, built once from the configuration ({@link fetchPolicyFromConfig}).
 * Secure by default: non-public addresses are refused unless allowlisted.
 */
export interface FetchPolicy {
  /** Refuse non-public addresses (default true; FETCH_DENY_PRIVATE_NETWORKS=false turns the guard off). */
  denyPrivateNetworks: boolean;
  /** FETCH_ALLOW_HOSTS. */
  allow: HostAllowlist;
  /** Default: the system resolver (`dns.lookup`, all addresses). */
  resolve?: Resolver;
  /** Default: {@link isPrivateAddress}. */
  isDeniedAddress?: (address: string) => boolean;
}

/** Deny every non-public address, allow nothing extra: what a caller gets when it passes no policy. */
export const DEFAULT_FETCH_POLICY: FetchPolicy = Object.freeze({ denyPrivateNetworks: true, allow: new HostAllowlist() });

export function fetchPolicyFromConfig(config: { fetchDenyPrivateNetworks: boolean; fetchAllowHosts: readonly string[] }): FetchPolicy {
  return { denyPrivateNetworks: config.fetchDenyPrivateNetworks, allow: new HostAllowlist(config.fetchAllowHosts) };
}

export async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  return await dns.promises.lookup(hostname, { all: true, verbatim: true });
}

/**
 * Throws {@link FetchAddressDeniedError} when the policy refuses to connect to `address` (an IP the name
 * `host` resolved to, or an IP literal) for `url`.
 */
export function checkDestination(policy: FetchPolicy, url: string, host: string, address: string): void {
  if (!policy.denyPrivateNetworks) return;
  const isDenied = policy.isDeniedAddress ?? isPrivateAddress;
  if (!isDenied(address)) return;
  if (policy.allow.allowsHost(host) || policy.allow.allowsAddress(address)) return;
  throw new FetchAddressDeniedError(url, host, address);
}
