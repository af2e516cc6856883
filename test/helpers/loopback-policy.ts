import { fetchPolicyFromConfig } from '../../src/net/policy.js';

/**
 * The test servers (git http-backend, OpenAPI spec server, proxies) listen on loopback, which the fetch guard
 * refuses by default: tests allowlist exactly these addresses, as an operator would an internal Git server.
 */
export const LOOPBACK_ALLOW_HOSTS = '127.0.0.1,::1';

/** The policy a worker gets from FETCH_ALLOW_HOSTS=127.0.0.1,::1 (private networks still denied). */
export const loopbackPolicy = fetchPolicyFromConfig({ fetchDenyPrivateNetworks: true, fetchAllowHosts: LOOPBACK_ALLOW_HOSTS.split(',') });
